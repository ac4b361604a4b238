import { type LookupAddress, type LookupOptions, lookup } from 'node:dns';
import { isPrivateAddress } from '../../domain/webhook-address.ts';

/** The code of the error a refused address fails the connection with. */
export const PRIVATE_ADDRESS_CODE = 'EWEBHOOK_PRIVATE_ADDRESS';

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup for sockets that refuses private addresses: checked on the address the connection is
 * actually made to, so a name that resolves (or rebinds) to the internal network is refused too.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const allowed = addresses.filter((entry) => !isPrivateAddress(entry.address));
    if (allowed.length === 0) {
      const refused = Object.assign(new Error(`${hostname} resolves to a private address`), {
        code: PRIVATE_ADDRESS_CODE,
      });
      return callback(refused, []);
    }
    if (options.all) return callback(null, allowed);
    callback(null, allowed[0]!.address, allowed[0]!.family);
  });
}

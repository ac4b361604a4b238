import { type LookupAddress, type LookupAllOptions, type LookupOptions, lookup } from 'node:dns';
import { isPublicAddress } from './domain/address.ts';

/** The code of the error a refused address fails the connection with. */
export const PRIVATE_ADDRESS_CODE = 'EWEBHOOK_PRIVATE_ADDRESS';

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** Resolves a name to all its addresses (dns.lookup by default). */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A DNS lookup for sockets that refuses every address but public ones (isPublicAddress): checked on
 * the answer the connection is made with, at every connect, so a name that resolves (or rebinds
 * since it was last looked up) to the internal network is refused too.
 */
export function publicOnlyLookup(resolveAll: ResolveAll = lookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolveAll(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const allowed = addresses.filter((entry) => isPublicAddress(entry.address));
      if (allowed.length === 0) {
        const refused = Object.assign(new Error(`${hostname}: refused address`), {
          code: PRIVATE_ADDRESS_CODE,
        });
        return callback(refused, []);
      }
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

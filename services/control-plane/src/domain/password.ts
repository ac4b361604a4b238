import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashes with Node's scrypt: a salt per hash, and the cost parameters stored beside it so
 * they can be raised later without invalidating the hashes already stored.
 */

const PARAMETERS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const { N, r, p } = PARAMETERS;
  const hash = await derive(password, salt, KEY_BYTES, N, r, p);
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), expected.length, +n!, +r!, +p!);
  return timingSafeEqual(actual, expected);
}

/**
 * A hash no password matches, verified when no operator has the email given, so a wrong email
 * costs the same time as a wrong password.
 */
export const UNMATCHABLE_HASH = `scrypt$${PARAMETERS.N}$${PARAMETERS.r}$${PARAMETERS.p}$${'A'.repeat(22)}$${'A'.repeat(43)}`;

function derive(password: string, salt: Buffer, bytes: number, N: number, r: number, p: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, bytes, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

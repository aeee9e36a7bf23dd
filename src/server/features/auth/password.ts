import crypto from 'node:crypto';
import { promisify } from 'node:util';

// scrypt is memory-hard and built into Node: no native add-on to build on install. The cost is
// OWASP's minimum for scrypt (N=2^17, r=8, p=1); older hashes are upgraded at the next login.
const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const params = { N: 2 ** 17, r: 8, p: 1 };
const keyLength = 64;
const maxmem = 128 * params.N * params.r * 2;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, keyLength, { ...params, maxmem });
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  // Without a stored hash still spend the same work, so timing does not tell which usernames exist.
  const [scheme, n, r, p, saltText, keyText] = (stored ?? dummyHash).split('$');
  if (scheme !== 'scrypt' || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64');
  const actual = await scrypt(password, Buffer.from(saltText, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem,
  });
  return stored != null && actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/** True when a stored hash was made with other parameters than today's. */
export function needsRehash(stored: string | null | undefined): boolean {
  if (!stored) return false;
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== params.N || Number(r) !== params.r || Number(p) !== params.p;
}

const dummyHash = `scrypt$${params.N}$${params.r}$${params.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(keyLength).toString('base64')}`;

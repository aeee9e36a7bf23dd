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

/** OWASP's minimum for scrypt: what every hash is made with outside the server tests. */
export const productionScryptCost = { N: 2 ** 17, r: 8, p: 1 } as const;
let params: { N: number; r: number; p: number } = productionScryptCost;
const keyLength = 64;
/** scrypt needs 128 * N * r bytes; twice the production cost's leaves room, and bounds a stored hash. */
const maxmem = 128 * productionScryptCost.N * productionScryptCost.r * 2;

/**
 * The server tests only (test/setup/passwordCost.ts): hash at a lower N, so that hundreds of
 * sign-ups do not spend minutes of CI in scrypt. Outside Vitest it throws; no setting reaches it.
 */
export function setScryptCostForTests(N: number) {
  if (!process.env.VITEST) throw new Error('The scrypt cost is fixed outside the tests');
  params = { ...productionScryptCost, N };
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, keyLength, { ...params, maxmem });
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  // Without a stored hash still spend the same work, so timing does not tell which usernames exist.
  const [scheme, n, r, p, saltText, keyText] = (stored ?? dummyHash()).split('$');
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

/** True when a stored hash was made at a lower cost than today's (never to lower one). */
export function needsRehash(stored: string | null | undefined): boolean {
  if (!stored) return false;
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) < params.N || Number(r) < params.r || Number(p) < params.p;
}

const dummyHash = () =>
  `scrypt$${params.N}$${params.r}$${params.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(keyLength).toString('base64')}`;

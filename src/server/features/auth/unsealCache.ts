import { unsealData } from 'iron-session';

// Unsealing a cookie costs a PBKDF2 key derivation (iron-webcrypto), the largest single cost of a
// signed-in request under load. The result is a pure function of (sealed string, password), so a
// successful unseal is remembered: bounded (least recently used out first), per password (an entry
// answers only for the password that unsealed it), and never past the seal's own expiration (the
// sixth field of an iron seal, in ms; iron itself allows a minute of clock skew on top, the cache
// none). Failures are not remembered: a forged or stale cookie costs what it always did, and
// cannot fill the cache. What the cookie names (the session row) is still looked up on every
// request (sessionStore.ts), so logout and revocation stay immediate.

type Entry = { password: string; data: Readonly<Record<string, unknown>>; expiresAt: number };

export type UnsealCache = ReturnType<typeof createUnsealCache>;

/** The expiration a seal carries (ms since the epoch), Infinity for none, undefined when unreadable. */
export function sealExpiration(seal: string): number | undefined {
  const field = seal.split('~')[0]!.split('*')[5];
  if (field === undefined) return undefined;
  if (field === '') return Number.POSITIVE_INFINITY;
  return /^[1-9]\d*$/.test(field) ? Number(field) : undefined;
}

export function createUnsealCache(options: { maxEntries: number; now?: () => number }) {
  const { maxEntries } = options;
  const now = options.now ?? (() => Date.now());
  const entries = new Map<string, Entry>();

  return {
    /**
     * What iron-session's unsealData answers (an empty object when the seal is not valid). From
     * memory it is the one frozen object the cache holds (no copy a request): read it, never change it.
     */
    async unseal<T extends object>(seal: string, password: string, ttlSeconds: number): Promise<Readonly<Partial<T>>> {
      const cached = entries.get(seal);
      if (cached && cached.password === password && cached.expiresAt > now()) {
        entries.delete(seal);
        entries.set(seal, cached);
        return cached.data as Readonly<Partial<T>>;
      }
      if (cached) entries.delete(seal);
      let failed = false;
      const data = await unsealData<T>(seal, { password, ttl: ttlSeconds, onUnsealError: () => {
          failed = true;
        },
      });
      const expiresAt = sealExpiration(seal);
      if (!failed && expiresAt !== undefined && expiresAt > now()) {
        entries.set(seal, { password, data: Object.freeze({ ...data }) as Entry['data'], expiresAt });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      }
      return data;
    },
    has(seal: string) {
      return entries.has(seal);
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
    },
  };
}

// One per process: seals are unique, and an entry carries its password.
export const unsealCache = createUnsealCache({ maxEntries: 10_000 });

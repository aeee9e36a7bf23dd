import { sealData } from 'iron-session';
import { describe, expect, it } from 'vitest';
import { createUnsealCache, sealExpiration } from './unsealCache.js';

const password = 'unseal-cache-test-password-0123456789abcdef';
const otherPassword = 'another-test-password-0123456789abcdef-xyz';

describe('unseal cache', () => {
  it('answers what iron-session unseals, and the second time from memory', async () => {
    const cache = createUnsealCache({ maxEntries: 10 });
    const seal = await sealData({ token: 'abc' }, { password, ttl: 3600 });

    expect(await cache.unseal(seal, password, 3600)).toEqual({ token: 'abc' });
    expect(cache.size).toBe(1);
    expect(await cache.unseal(seal, password, 3600)).toEqual({ token: 'abc' });
    expect(cache.size).toBe(1);
  });

  it('never answers for another password, even for a seal it holds', async () => {
    const cache = createUnsealCache({ maxEntries: 10 });
    const seal = await sealData({ token: 'abc' }, { password, ttl: 3600 });
    await cache.unseal(seal, password, 3600);

    expect(await cache.unseal(seal, otherPassword, 3600)).toEqual({});
    // ... and the failed attempt did not take the place of the right one.
    expect(await cache.unseal(seal, password, 3600)).toEqual({ token: 'abc' });
  });

  it('does not answer past the seal expiration, though iron would still allow clock skew', async () => {
    let now = Date.now();
    const cache = createUnsealCache({ maxEntries: 10, now: () => now });
    const seal = await sealData({ token: 'abc' }, { password, ttl: 120 });
    const expiresAt = sealExpiration(seal)!;
    expect(expiresAt).toBeGreaterThan(now);

    expect(await cache.unseal(seal, password, 120)).toEqual({ token: 'abc' });
    now = expiresAt;
    // Iron accepts the seal for another minute: the answer comes from iron, not from memory.
    expect(await cache.unseal(seal, password, 120)).toEqual({ token: 'abc' });
    expect(cache.size).toBe(0);
  });

  it('does not serve an expired seal once iron refuses it', async () => {
    const cache = createUnsealCache({ maxEntries: 10 });
    const realNow = Date.now;
    const seal = await sealData({ token: 'abc' }, { password, ttl: 1 });
    expect(await cache.unseal(seal, password, 1)).toEqual({ token: 'abc' });
    Date.now = () => realNow() + 5 * 60_000;
    try {
      expect(await cache.unseal(seal, password, 1)).toEqual({});
    } finally {
      Date.now = realNow;
    }
    expect(cache.size).toBe(0);
  });

  it('remembers no failure: a tampered seal is refused every time and fills nothing', async () => {
    const cache = createUnsealCache({ maxEntries: 10 });
    const seal = await sealData({ token: 'abc' }, { password, ttl: 3600 });
    const tampered = seal.replace(/\*([^*]+)~/, (_m, mac: string) => `*${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}~`);
    expect(tampered).not.toBe(seal);

    expect(await cache.unseal(tampered, password, 3600)).toEqual({});
    expect(await cache.unseal('not-a-seal', password, 3600)).toEqual({});
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, dropping the least recently used', async () => {
    const cache = createUnsealCache({ maxEntries: 2 });
    const seals = await Promise.all(['a', 'b', 'c'].map((token) => sealData({ token }, { password, ttl: 3600 })));
    await cache.unseal(seals[0]!, password, 3600);
    await cache.unseal(seals[1]!, password, 3600);
    await cache.unseal(seals[0]!, password, 3600); // a is now the most recent
    await cache.unseal(seals[2]!, password, 3600); // b goes

    expect(cache.size).toBe(2);
    expect([cache.has(seals[0]!), cache.has(seals[1]!), cache.has(seals[2]!)]).toEqual([true, false, true]);
    // A hit returns the cache's frozen object, not a copy: it cannot be changed, so what the next
    // request reads is what was unsealed.
    const read = (await cache.unseal<{ token: string }>(seals[0]!, password, 3600)) as { token: string };
    expect(() => {
      read.token = 'changed';
    }).toThrow(TypeError);
    expect(await cache.unseal(seals[0]!, password, 3600)).toEqual({ token: 'a' });
  });

  it('reads the expiration field of a seal', () => {
    expect(sealExpiration('Fe26.2*1*salt*iv*data*1700000000000*hsalt*mac~2')).toBe(1_700_000_000_000);
    expect(sealExpiration('Fe26.2*1*salt*iv*data**hsalt*mac~2')).toBe(Number.POSITIVE_INFINITY);
    expect(sealExpiration('Fe26.2*1*salt*iv*data*soon*hsalt*mac')).toBeUndefined();
    expect(sealExpiration('garbage')).toBeUndefined();
  });
});

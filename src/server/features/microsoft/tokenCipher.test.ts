import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenCipher, isLegacySealed } from './tokenCipher.js';

const alice = { userId: 1, service: 'email' };

/** A value in the format sealed before values were bound to their owner and service: "keyId.nonce.tag.body", AAD = the key id only. */
function legacySeal(secret: string, plain: string, tagLength = 16): string {
  const key = crypto.createHash('sha256').update(`ai-coach token key\0${secret}`).digest();
  const id = crypto.createHash('sha256').update(key).digest('hex').slice(0, 12);
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce, { authTagLength: tagLength });
  cipher.setAAD(Buffer.from(id));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [id, nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

describe('token cipher', () => {
  const current = 'current-key-that-is-long-enough-0123456789';
  const old = 'old-key-that-is-also-long-enough-0123456789';

  it('seals with a fresh nonce and names its format and key', () => {
    const cipher = createTokenCipher(current);
    const a = cipher.seal('secret-token', alice);
    expect(a).not.toContain('secret-token');
    expect(a).not.toBe(cipher.seal('secret-token', alice));
    expect(a.split('.').slice(0, 2)).toEqual(['v2', cipher.keyId]);
    expect(isLegacySealed(a)).toBe(false);
    expect(cipher.open(a, alice)).toBe('secret-token');
  });

  it('opens values sealed with a previous key after a rotation, and refuses unknown keys', () => {
    const sealedBefore = createTokenCipher(old).seal('rotated', alice);
    expect(createTokenCipher(current, [old]).open(sealedBefore, alice)).toBe('rotated');
    expect(() => createTokenCipher(current).open(sealedBefore, alice)).toThrow();
  });

  it('refuses a tampered value', () => {
    const cipher = createTokenCipher(current);
    const [v, id, nonce, tag, body] = cipher.seal('untouched', alice).split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => cipher.open([v, id, nonce, tag, flipped.toString('base64url')].join('.'), alice)).toThrow();
  });

  it('binds a value to its user and service: moved to another row it does not open', () => {
    const cipher = createTokenCipher(current);
    const sealed = cipher.seal('alice-mail-token', alice);
    expect(() => cipher.open(sealed, { userId: 2, service: 'email' })).toThrow();
    expect(() => cipher.open(sealed, { userId: 1, service: 'calendar' })).toThrow();
  });

  it('refuses a truncated authentication tag', () => {
    const cipher = createTokenCipher(current);
    const [v, id, nonce, tag, body] = cipher.seal('short-tag', alice).split('.');
    const short = Buffer.from(tag!, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => cipher.open([v, id, nonce, short, body].join('.'), alice)).toThrow(/truncated/);
    // The old format too: a 4-byte tag made by a real GCM cipher is not accepted either.
    expect(() => cipher.open(legacySeal(current, 'x', 4), alice)).toThrow(/truncated/);
  });

  it('still opens a value sealed in the old, unbound format (to be sealed again)', () => {
    const cipher = createTokenCipher(current);
    const legacy = legacySeal(current, 'from-before-the-upgrade');
    expect(isLegacySealed(legacy)).toBe(true);
    expect(cipher.open(legacy, alice)).toBe('from-before-the-upgrade');
  });
});

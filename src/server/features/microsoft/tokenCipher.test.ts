import { describe, expect, it } from 'vitest';
import { createTokenCipher } from './tokenCipher.js';

describe('token cipher', () => {
  const current = 'current-key-that-is-long-enough-0123456789';
  const old = 'old-key-that-is-also-long-enough-0123456789';

  it('seals with a fresh nonce and names its key', () => {
    const cipher = createTokenCipher(current);
    const a = cipher.seal('secret-token');
    expect(a).not.toContain('secret-token');
    expect(a).not.toBe(cipher.seal('secret-token'));
    expect(a.split('.')[0]).toBe(cipher.keyId);
    expect(cipher.open(a)).toBe('secret-token');
  });

  it('opens values sealed with a previous key after a rotation, and refuses unknown keys', () => {
    const sealedBefore = createTokenCipher(old).seal('rotated');
    expect(createTokenCipher(current, [old]).open(sealedBefore)).toBe('rotated');
    expect(() => createTokenCipher(current).open(sealedBefore)).toThrow();
  });

  it('refuses a tampered value', () => {
    const cipher = createTokenCipher(current);
    const [id, nonce, tag, body] = cipher.seal('untouched').split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => cipher.open([id, nonce, tag, flipped.toString('base64url')].join('.'))).toThrow();
  });
});

import crypto from 'node:crypto';
import { configuredOrGeneratedSecret } from '../../generatedSecret.js';

// Provider tokens at rest: AES-256-GCM with a random 96-bit nonce per value and the full 16-byte
// tag. A sealed value is "v2.keyId.nonce.tag.ciphertext" (base64url); the key id lets an operator
// rotate keys: the current key seals, every listed key opens (TOKEN_ENCRYPTION_KEY,
// TOKEN_ENCRYPTION_PREVIOUS_KEYS).
//
// Each value is bound to its owner and service: the authenticated data is the format,
// the key id, the user's id and the service, so a sealed token copied into another user's row, or
// from the mail row to the calendar row, does not open.
//
// Values sealed before the binding ("keyId.nonce.tag.ciphertext", no version) still open, with a
// 16-byte tag only, so nobody has to reconnect Microsoft after an upgrade; `isLegacySealed` tells
// the caller to seal them again, bound, at once (features/microsoft/connections.ts), so each is
// accepted unbound at most until its first use.

export type TokenBinding = { userId: number; service: string };

export type TokenCipher = {
  /** The id of the key that seals new values. */
  keyId: string;
  seal(plain: string, binding: TokenBinding): string;
  open(sealed: string, binding: TokenBinding): string;
};

export class TokenKeyUnknownError extends Error {}

const version = 'v2';
const tagLength = 16;

function keyMaterial(secret: string): { id: string; key: Buffer } {
  // Any secret of 32+ characters becomes a 256-bit key; the id is a short hash of that key.
  const key = crypto.createHash('sha256').update(`ai-coach token key\0${secret}`).digest();
  const id = crypto.createHash('sha256').update(key).digest('hex').slice(0, 12);
  return { id, key };
}

function boundData(keyId: string, binding: TokenBinding): Buffer {
  return Buffer.from([version, keyId, String(binding.userId), binding.service].join('\0'));
}

/** A value sealed before values were bound to their user and service: seal it again. */
export function isLegacySealed(sealed: string): boolean {
  return !sealed.startsWith(`${version}.`);
}

export function createTokenCipher(current: string, previous: string[] = []): TokenCipher {
  const active = keyMaterial(current);
  const keys = new Map([active, ...previous.map(keyMaterial)].map((k) => [k.id, k.key]));

  function decrypt(key: Buffer, nonce: string, tag: string, body: string, aad: Buffer): string {
    const tagBytes = Buffer.from(tag, 'base64url');
    // A shorter tag would make forgeries cheaper: only the full 16 bytes are accepted.
    if (tagBytes.length !== tagLength) throw new Error('The sealed token has a truncated authentication tag');
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'), { authTagLength: tagLength });
    decipher.setAAD(aad);
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  return {
    keyId: active.id,
    seal(plain, binding) {
      const nonce = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', active.key, nonce, { authTagLength: tagLength });
      cipher.setAAD(boundData(active.id, binding));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [version, active.id, nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed, binding) {
      const parts = sealed.split('.');
      const legacy = isLegacySealed(sealed);
      const [id, nonce, tag, body] = legacy ? parts : parts.slice(1);
      const key = id ? keys.get(id) : undefined;
      if (!key || !nonce || !tag || body === undefined) throw new TokenKeyUnknownError('The token was sealed with a key this server does not have');
      return decrypt(key, nonce, tag, body, legacy ? Buffer.from(id!) : boundData(id!, binding));
    },
  };
}

/** The configured key, or one generated once into DATA_DIR (like the session secret). */
export function resolveTokenKey(configured: string | undefined, dataDir: string): string {
  return configuredOrGeneratedSecret(configured, dataDir, 'token-key');
}

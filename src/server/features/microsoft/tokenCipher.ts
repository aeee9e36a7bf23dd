import crypto from 'node:crypto';
import { configuredOrGeneratedSecret } from '../../generatedSecret.js';

// Provider tokens at rest: AES-256-GCM with a random 96-bit nonce per value. A sealed value is
// "keyId.nonce.tag.ciphertext" (base64url); the key id lets an operator rotate keys: the current
// key seals, every listed key opens (TOKEN_ENCRYPTION_KEY, TOKEN_ENCRYPTION_PREVIOUS_KEYS).

export type TokenCipher = {
  /** The id of the key that seals new values. */
  keyId: string;
  seal(plain: string): string;
  open(sealed: string): string;
};

export class TokenKeyUnknownError extends Error {}

function keyMaterial(secret: string): { id: string; key: Buffer } {
  // Any secret of 32+ characters becomes a 256-bit key; the id is a short hash of that key.
  const key = crypto.createHash('sha256').update(`ai-coach token key\0${secret}`).digest();
  const id = crypto.createHash('sha256').update(key).digest('hex').slice(0, 12);
  return { id, key };
}

export function createTokenCipher(current: string, previous: string[] = []): TokenCipher {
  const active = keyMaterial(current);
  const keys = new Map([active, ...previous.map(keyMaterial)].map((k) => [k.id, k.key]));
  return {
    keyId: active.id,
    seal(plain) {
      const nonce = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', active.key, nonce);
      cipher.setAAD(Buffer.from(active.id));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [active.id, nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const [id, nonce, tag, body] = sealed.split('.');
      const key = id ? keys.get(id) : undefined;
      if (!key || !nonce || !tag || body === undefined) throw new TokenKeyUnknownError('The token was sealed with a key this server does not have');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAAD(Buffer.from(id!));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** The configured key, or one generated once into DATA_DIR (like the session secret). */
export function resolveTokenKey(configured: string | undefined, dataDir: string): string {
  return configuredOrGeneratedSecret(configured, dataDir, 'token-key');
}

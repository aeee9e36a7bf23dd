import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MicrosoftConnection } from '../../src/server/db/entities/MicrosoftConnection.js';
import { accessTokenFor, ReconnectNeededError } from '../../src/server/features/microsoft/connections.js';
import { isLegacySealed } from '../../src/server/features/microsoft/tokenCipher.js';
import { signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// Check-access without the key header spends nothing; per-address limits
// count an IPv6 client by its /64; sealed Microsoft tokens are bound to their user and service,
// and tokens sealed before that keep working (sealed again, bound, on first use).
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const tokenKey = 'a-token-encryption-key-for-these-tests-0123456789';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ DEMO_MODE: 'false', ACCESS_KEY: 'the-right-key', TRUST_PROXY: '1', TOKEN_ENCRYPTION_KEY: tokenKey });
});
afterAll(async () => {
  await server?.stop();
});

const from = (address: string) => new HttpClient(server.url, { headers: { 'x-forwarded-for': address } });

describe('check-access', () => {
  it('spends nothing on a request without the key header (a cross-site <img>)', async () => {
    const victim = from('192.0.2.10');
    for (let i = 0; i < 12; i++) {
      const res = await victim.get('/api/auth/check-access');
      expect(res.status).toBe(401);
    }
    // The victim's own guesses are all still there: the right key works at once.
    expect((await victim.get('/api/auth/check-access', { 'x-access-key': 'the-right-key' })).status).toBe(200);
  });
});

describe('IPv6 clients are limited by /64', () => {
  it('counts wrong access keys from every address of one /64 together, and another /64 apart', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push((await from(`2001:db8:aa:1::${i}`).get('/api/auth/check-access', { 'x-access-key': `guess-${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Still refused from yet another address of the same /64, with the right key too.
    expect((await from('2001:db8:aa:1:ffff:1:2:3').get('/api/auth/check-access', { 'x-access-key': 'the-right-key' })).status).toBe(429);
    // The neighbouring /64 is another client.
    expect((await from('2001:db8:aa:2::1').get('/api/auth/check-access', { 'x-access-key': 'the-right-key' })).status).toBe(200);
  });
});

describe('sealed Microsoft tokens', () => {
  /** A value sealed the way the server did before values were bound to their owner and service: "keyId.nonce.tag.body", AAD = key id. */
  function legacySeal(plain: string): { keyId: string; sealed: string } {
    const key = crypto.createHash('sha256').update(`ai-coach token key\0${tokenKey}`).digest();
    const keyId = crypto.createHash('sha256').update(key).digest('hex').slice(0, 12);
    const nonce = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(keyId));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return { keyId, sealed: [keyId, nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.') };
  }

  it('opens a token sealed before the upgrade, and seals it again bound to its user and service', async () => {
    const { user } = await signUp(server.url, 'legacy-mail');
    const { keyId, sealed } = legacySeal('legacy-access-token');
    const em = server.deps.orm.em.fork();
    const row = em.create(MicrosoftConnection, { user: user.id, service: 'email', keyId, accessTokenSealed: sealed, refreshTokenSealed: null, expiresAt: null, accountEmail: null });
    await em.flush();

    expect(await accessTokenFor(server.deps, em, row)).toBe('legacy-access-token');
    const stored = await server.deps.orm.em.fork().findOneOrFail(MicrosoftConnection, { id: row.id });
    expect(isLegacySealed(stored.accessTokenSealed)).toBe(false);
    expect(stored.accessTokenSealed.startsWith('v2.')).toBe(true);
    expect(await accessTokenFor(server.deps, server.deps.orm.em.fork(), stored)).toBe('legacy-access-token');
  });

  it('does not open a token moved to another user’s row: that row needs a reconnect', async () => {
    const alice = await signUp(server.url, 'alice-mail');
    const mallory = await signUp(server.url, 'mallory-mail');
    const em = server.deps.orm.em.fork();
    const sealed = server.deps.microsoft.cipher.seal('alice-access-token', { userId: alice.user.id, service: 'email' });
    const stolen = em.create(MicrosoftConnection, { user: mallory.user.id, service: 'email', keyId: server.deps.microsoft.cipher.keyId, accessTokenSealed: sealed, refreshTokenSealed: null, expiresAt: null, accountEmail: null });
    await em.flush();
    await expect(accessTokenFor(server.deps, em, stolen)).rejects.toBeInstanceOf(ReconnectNeededError);
    expect(stolen.needsReconnect).toBe(true);
  });
});

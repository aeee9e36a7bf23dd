import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../../src/server/db/entities/User.js';
import { limitTexts, phoneTexts } from '../../src/shared/texts/index.js';
import { eventually } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';
import type { RelayClient } from '../fakes/twilio/relay.js';
import { callIn, twilioEnv } from '../helpers/phone.js';

// Model spend per client address: registrations are cheap (RATE_LIMIT_REGISTER_PER_HOUR
// from one address), so each new account's own MODEL_DAILY_QUOTA would multiply an address's day of
// model turns. MODEL_DAILY_QUOTA_PER_ADDRESS is one budget per address (/64 for IPv6) over every
// account younger than a day and every guest; TRUSTED_ADDRESSES are left alone; an unknown phone
// caller takes the same budget by their number.
const quota = 3;
const publicUrl = 'https://coach.example.com';

describe('the daily model budget per client address', { timeout: 120_000 }, () => {
  let server: TestServer;
  let twilio: FakeTwilio;
  let model: FakeOpenAI;
  const open: RelayClient[] = [];

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    model = await startFakeOpenAI();
    server = await startTestServer({
      DEMO_MODE: 'false',
      TRUST_PROXY: '1',
      MODEL_DAILY_QUOTA_PER_ADDRESS: String(quota),
      TRUSTED_ADDRESSES: '198.51.100.0/24,2001:db8:77::1',
      OPENAI_API_KEY: 'sk-test-key-123456',
      OPENAI_BASE_URL: model.url,
      ...twilioEnv(twilio, publicUrl),
    });
  }, 180_000);
  afterAll(async () => {
    for (const client of open) client.close();
    await server?.stop();
    await twilio?.close();
    await model?.close();
  });

  let counter = 0;
  async function register(address: string) {
    const http = new HttpClient(server.url, { headers: { 'x-forwarded-for': address } });
    counter += 1;
    const res = await http.post('/api/auth/register', { username: `addr_quota_${counter}`, password: 'secret123', fullName: 'Quota Tester' });
    expect(res.status).toBe(201);
    const chat = (await http.post('/api/chats')).json as { id: number };
    // One message at a time: the next is sent once the coach has finished the last reply.
    const send = async (content = 'How do I plan my week?') => {
      const sent = await http.post(`/api/chats/${chat.id}/messages`, { content });
      if (sent.status === 201) {
        await eventually(async () => {
          const last = (await http.get(`/api/chats/${chat.id}/messages`)).json.at(-1);
          return last?.role === 'assistant' && last.status !== 'streaming';
        }, 30_000);
      }
      return sent;
    };
    return { http, userId: res.json.user.id as number, send };
  }

  it('shares one budget between two registrations from one address, answered 429 with Retry-After and a message', async () => {
    const first = await register('203.0.113.10');
    const second = await register('203.0.113.10');
    expect((await first.send()).status).toBe(201);
    expect((await first.send()).status).toBe(201);
    expect((await second.send()).status).toBe(201);
    // Each account has used less than its own MODEL_DAILY_QUOTA, but the address's budget is spent.
    const refused = await second.send();
    expect(refused.status).toBe(429);
    expect(refused.json.message).toBe(limitTexts.addressQuotaSpent(quota));
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect((await first.send()).status).toBe(429);
    const third = await register('203.0.113.10');
    expect((await third.send()).status).toBe(429);
    // Another address has its own budget.
    expect((await (await register('203.0.113.11')).send()).status).toBe(201);
  });

  it('counts IPv6 clients by their /64', async () => {
    const first = await register('2001:db8:1:2::a');
    const second = await register('2001:db8:1:2:ffff::b');
    for (let i = 0; i < quota; i++) expect((await (i % 2 ? second : first).send()).status).toBe(201);
    expect((await second.send()).status).toBe(429);
    expect((await (await register('2001:db8:1:3::a')).send()).status).toBe(201);
  });

  it('leaves alone accounts older than a day, and trusted addresses', async () => {
    const settled = await register('203.0.113.20');
    const fresh = await register('203.0.113.20');
    await server.deps.orm.em.fork().nativeUpdate(User, { id: settled.userId }, { createdAt: new Date(Date.now() - 2 * 24 * 3600_000) });
    for (let i = 0; i < quota; i++) expect((await fresh.send()).status).toBe(201);
    expect((await fresh.send()).status).toBe(429);
    for (let i = 0; i < quota + 2; i++) expect((await settled.send()).status).toBe(201);

    for (const address of ['198.51.100.7', '2001:db8:77::1']) {
      const trusted = await register(address);
      for (let i = 0; i < quota + 2; i++) expect((await trusted.send()).status).toBe(201);
    }
  });

  it('gives an unknown phone caller a daily budget by their number', async () => {
    model.behave({ reply: 'Let us look at that.' });
    async function call(from: string) {
      const { client } = await callIn({ appUrl: server.url, publicUrl, authToken: twilio.authToken, from });
      open.push(client);
      return client;
    }
    const first = await call('+15554440001');
    for (let i = 0; i < quota - 1; i++) {
      first.prompt('Help me plan.');
      expect((await first.nextReply()).text).toBe('Let us look at that.');
    }
    first.close();
    // A new call from the same number: the same day's budget.
    const second = await call('+15554440001');
    second.prompt('Help me plan.');
    expect((await second.nextReply()).text).toBe('Let us look at that.');
    second.prompt('And then?');
    expect((await second.nextReply()).text).toBe(phoneTexts.tooManyTurns);
    // Another number is another caller.
    const other = await call('+15554440002');
    other.prompt('Help me plan.');
    expect((await other.nextReply()).text).toBe('Let us look at that.');
  });
});

import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enforceDataRetention, temporaryChatIdleMs } from '../../src/server/features/privacy/dataRetention.js';
import { commonTexts, phoneTexts } from '../../src/shared/texts/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';
import { verifyPhone, twilioEnv } from '../helpers/phone.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { postSignedWebhook, startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';

// POST /api/twilio/voice/call through the real twilio SDK against the fake Calls API, and the
// signed webhooks' TwiML conversation.
const publicUrl = 'https://coach.example.com';

describe('phone calls', () => {
  let twilio: FakeTwilio;
  let model: FakeOpenAI;
  let server: TestServer;
  let unconfigured: TestServer;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    model = await startFakeOpenAI();
    [server, unconfigured] = await Promise.all([startTestServer(configured()), startTestServer({ DEMO_MODE: 'false' })]);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await unconfigured?.stop();
    await twilio?.close();
    await model?.close();
  });
  beforeEach(() => {
    twilio.calls.length = 0;
    model.reset();
  });

  const parse = (xml: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(xml).Response;

  // A server with the model and Twilio configured; `extra` overrides (limits).
  const configured = (extra: Record<string, string> = {}) => ({
    DEMO_MODE: 'false',
    OPENAI_API_KEY: 'sk-test-key-123456',
    OPENAI_BASE_URL: model.url,
    ...twilioEnv(twilio, publicUrl),
    TWILIO_ALLOWED_COUNTRY_PREFIXES: '+1,+44',
    ...extra,
  });

  it('asks Twilio to call the number, with webhooks under PUBLIC_URL', async () => {
    const { http, user } = await signUp(server.url, 'phone-user-1');
    await verifyPhone(http, twilio, '+15551234567');
    const res = await http.post('/api/twilio/voice/call', { phoneNumber: '+1 (555) 123-4567' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, callSid: expect.stringMatching(/^CA[0-9a-f]{32}$/), message: phoneTexts.callMessage });
    expect(twilio.calls).toEqual([
      expect.objectContaining({ sid: res.json.callSid, to: '+15551234567', from: '+15550001111', url: `${publicUrl}/api/twilio/voice/incoming?user=${user.id}`, statusCallback: `${publicUrl}/api/twilio/voice/status` }),
    ]);
  });

  it('refuses invalid numbers and other countries without asking Twilio', async () => {
    const { http } = await signUp(server.url, 'phone-user-2');
    for (const phoneNumber of ['12345', 'abc', '', '+1 555 ABC', '+0123456789', '+1'.padEnd(30, '5'), '\u0000+15551234567']) {
      const res = await http.post('/api/twilio/voice/call', { phoneNumber });
      expect(res.status, phoneNumber).toBe(400);
      // Text that cannot be stored is refused at the input boundary, naming the field.
      const expected = phoneNumber === '' ? phoneTexts.numberRequired : phoneNumber.includes('\u0000') ? commonTexts.unsafeText('phoneNumber') : phoneTexts.invalidNumber;
      expect(res.json.message, phoneNumber).toBe(expected);
    }
    expect((await http.post('/api/twilio/voice/call', {})).json.message).toBe(phoneTexts.numberRequired);
    const abroad = await http.post('/api/twilio/voice/call', { phoneNumber: '+882123456789' });
    expect(abroad.status).toBe(400);
    expect(abroad.json.message).toBe(phoneTexts.countryNotAllowed);
    expect(twilio.calls).toHaveLength(0);
  });

  it('rate-limits call requests per user, and needs a session and configuration', async () => {
    const { http } = await signUp(server.url, 'phone-user-3');
    await verifyPhone(http, twilio, '+15551230003');
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await http.post('/api/twilio/voice/call', { phoneNumber: '+15551230003' })).status);
    expect(statuses.indexOf(429)).toBeGreaterThan(0);
    expect(statuses.indexOf(429)).toBeLessThan(10);
    // Another user has a budget of their own.
    const other = await signUp(server.url, 'phone-user-4');
    await verifyPhone(other.http, twilio, '+15551230004');
    expect((await other.http.post('/api/twilio/voice/call', { phoneNumber: '+15551230004' })).status).toBe(200);
    expect((await new HttpClient(server.url).post('/api/twilio/voice/call', { phoneNumber: '+15551234567' })).status).toBe(401);
    const lonely = await signUp(unconfigured.url, 'phone-user-5');
    const res = await lonely.http.post('/api/twilio/voice/call', { phoneNumber: '+15551234567' });
    expect(res.status).toBe(412);
    expect(res.json.message).toBe(phoneTexts.notConfigured);
  });

  it('refuses unsigned, wrongly signed, other-URL and altered webhooks with 403', async () => {
    const target = `${server.url}/api/twilio/voice/incoming`;
    const params = { CallSid: 'CA1', From: '+15551230000', To: '+15550001111', Direction: 'inbound' };
    const signedUrl = `${publicUrl}/api/twilio/voice/incoming`;
    const cases = [
      postSignedWebhook({ authToken: twilio.authToken, signedUrl, targetUrl: target, params, signature: null }),
      postSignedWebhook({ authToken: 'another-token', signedUrl, targetUrl: target, params }),
      postSignedWebhook({ authToken: twilio.authToken, signedUrl: `https://evil.example.com/api/twilio/voice/incoming`, targetUrl: target, params }),
      postSignedWebhook({ authToken: twilio.authToken, signedUrl, targetUrl: target, params, sentParams: { ...params, From: '+15559999999' } }),
    ];
    for (const res of await Promise.all(cases)) expect(res.status).toBe(403);
    const good = await postSignedWebhook({ authToken: twilio.authToken, signedUrl, targetUrl: target, params });
    expect(good.status).toBe(200);
  });
});

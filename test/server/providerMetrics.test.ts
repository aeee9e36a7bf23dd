import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultNudgeSettings } from '../../src/shared/schemas/nudges.js';
import { rehearsalSetUp } from '../helpers/rehearsal.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { startFakePushService, type FakePushService } from '../fakes/push.js';
import { startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { twilioEnv, verifyPhone } from '../helpers/phone.js';
import { startTestServer, type HttpClient, type TestServer } from '../helpers/server.js';

// Every outside provider compose.ts builds is counted on GET /metrics, driven through the real
// server against the fakes: speech to text, speech, memory extraction and the rehearsal judge (the
// OpenAI-compatible fake), the verification text and the call (the fake Twilio), and a web push
// (the local push service), each as provider_call_duration_seconds by provider, operation and
// outcome, never with what was said.

vi.setConfig({ testTimeout: 60_000 });

const token = 'metrics-token-providers-0123456789';
const secret = 'I lead a team of 8 engineers PROVIDER-SECRET-7731';
let openai: FakeOpenAI;
let twilio: FakeTwilio;
let push: FakePushService;
let server: TestServer;
const queueClock = new TestClock();

beforeAll(async () => {
  [openai, twilio, push] = await Promise.all([startFakeOpenAI(), startFakeTwilio(), startFakePushService()]);
  server = await startTestServer(
    { DEMO_MODE: 'false', METRICS_TOKEN: token, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: openai.url, WEB_PUSH_ALLOWED_HOSTS: '127.0.0.1', ...twilioEnv(twilio) },
    undefined,
    { queueClock },
  );
  await queueClock.setTime(Date.now());
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await Promise.all([openai?.close(), twilio?.close(), push?.close()]);
});

const scrape = async () => (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();

/** The count of provider calls of one provider, operation and outcome (0 when none yet). */
function calls(text: string, provider: string, operation: string, outcome: 'ok' | 'failed'): number {
  const series = `provider_call_duration_seconds_count{provider="${provider}",operation="${operation}",outcome="${outcome}"}`;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const runsOf = async (http: HttpClient) => (await http.get('/api/nudges/runs')).json.runs as Array<{ id: number; status: string; channels: string[] }>;

describe('provider calls on /metrics', () => {
  it('counts speech to text, speech, memory extraction, the rehearsal judge, SMS, calls and push by provider, operation and outcome', async () => {
    const { http } = await signUp(server.url, `providers_${Date.now() % 100000}`, 'Jane Doe');

    // Speech to text and speech.
    expect((await http.post('/api/voice/transcribe', { audioBlob: Buffer.from('1a45dfa3a342868101', 'hex').toString('base64') })).status).toBe(200);
    expect((await http.post('/api/voice/synthesize', { text: 'Hello there', voice: 'alloy' })).status).toBe(200);

    // Memory extraction: a message that may hold a fact, after its reply.
    openai.behave({ reply: (body) => (body.response_format ? '{"memories":[]}' : 'Noted.') });
    const chat = (await http.post('/api/chats', {})).json as { id: number };
    expect((await http.post(`/api/chats/${chat.id}/messages`, { content: secret })).status).toBe(201);
    await server.deps.replies.settled();

    // The rehearsal judge: a rehearsal with a turn of the user's, then its feedback.
    const rehearsal = (await http.post('/api/rehearsals', rehearsalSetUp)).json as { id: number; chatId: number };
    expect((await http.post(`/api/chats/${rehearsal.chatId}/messages`, { content: 'Can we agree on the new date by Friday?' })).status).toBe(201);
    await server.deps.replies.settled();
    expect((await http.post(`/api/rehearsals/${rehearsal.id}/feedback`)).status).toBe(200);
    openai.reset();

    // The verification text, then a call.
    await verifyPhone(http, twilio, '+15551234567');
    expect((await http.post('/api/twilio/voice/call', { phoneNumber: '+15551234567' })).status).toBe(200);

    // A push: delivered once, then refused by the service (gone): a failure.
    const browser = push.subscribe();
    expect((await http.post('/api/push/subscriptions', browser)).status).toBe(201);
    expect((await http.put('/api/nudges/settings', { ...defaultNudgeSettings, channels: { email: false, push: true, call: false } })).status).toBe(200);
    const first = (await http.post('/api/nudges/run', { kind: 'weekly_review' })).json.runId as number;
    await eventually(async () => (await runsOf(http)).find((r) => r.id === first && r.status !== 'queued'), 20_000);
    push.gone(browser.endpoint, 410);
    const second = (await http.post('/api/nudges/run', { kind: 'weekly_review' })).json.runId as number;
    await eventually(async () => (await runsOf(http)).find((r) => r.id === second && r.status !== 'queued'), 20_000);

    const text = await scrape();
    expect(calls(text, 'openai', 'speech_to_text', 'ok')).toBe(1);
    expect(calls(text, 'openai', 'speech', 'ok')).toBe(1);
    expect(calls(text, 'openai', 'memory_extraction', 'ok')).toBeGreaterThanOrEqual(1);
    expect(calls(text, 'openai', 'rehearsal_judge', 'ok')).toBe(1);
    expect(calls(text, 'twilio', 'sms', 'ok')).toBe(1);
    expect(calls(text, 'twilio', 'placeCall', 'ok')).toBe(1);
    expect(calls(text, 'web_push', 'push', 'ok')).toBe(1);
    expect(calls(text, 'web_push', 'push', 'failed')).toBe(1);
    expect(text).toMatch(/provider_errors_total\{provider="web_push"\} 1\b/);
    // Durations are kept too, and no label carries what the user said.
    expect(text).toContain('provider_call_duration_seconds_bucket{le="0.01",provider="twilio",operation="sms",outcome="ok"}');
    expect(text).not.toContain('PROVIDER-SECRET');
    expect(text).not.toContain('+1555');
  });
});

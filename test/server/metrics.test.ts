import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// GET /metrics: Prometheus text behind METRICS_TOKEN, labels that are route patterns
// and fixed names (never a raw path or an id), and nothing at all without the token configured.
const token = 'metrics-token-0123456789abcdef';
let fake: FakeOpenAI;
let server: TestServer;
let plain: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  [server, plain] = await Promise.all([
    startTestServer({ DEMO_MODE: 'false', METRICS_TOKEN: token, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, RATE_LIMIT_LOGIN_PER_USERNAME: '2' }),
    startTestServer({ DEMO_MODE: 'false' }),
  ]);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await plain?.stop();
  await fake?.close();
});

const scrape = (baseUrl: string, authorization?: string) => fetch(`${baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });

/** Every label set of a metric in the exposition, e.g. [{ method: 'GET', route: '/api/chats', status: '200' }]. */
function labelsOf(text: string, metric: string): Record<string, string>[] {
  const sets: Record<string, string>[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}{`)) continue;
    const inner = line.slice(metric.length + 1, line.indexOf('}'));
    sets.push(Object.fromEntries([...inner.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!])));
  }
  return sets;
}

function sampleOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('answers 401 without the token or with a wrong one, in the same way', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`, token, `bearer ${token}`, `Bearer ${token.slice(0, -1)}`]) {
      const res = await scrape(server.url, authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(await res.text()).not.toContain('http_request_duration_seconds');
    }
  });

  it('is not there when METRICS_TOKEN is not set', async () => {
    for (const authorization of [undefined, `Bearer ${token}`]) {
      const res = await scrape(plain.url, authorization);
      expect(res.headers.get('content-type') ?? '').not.toContain('version=0.0.4');
      expect(await res.text()).not.toContain('# TYPE');
    }
  });

  it('counts requests by route pattern and status, model turns by path, sockets, refusals and the process, with no raw ids', async () => {
    const username = `metrics_${Date.now()}`;
    const { http } = await signUp(server.url, username);
    const chat = (await http.post('/api/chats')).json;
    expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'Help me plan my week' })).status).toBe(201);
    await eventually(async () => (await http.get(`/api/chats/${chat.id}/messages`)).json.at(-1)?.status === 'complete');
    expect((await http.get('/api/chats/987654/messages')).status).toBe(404);
    expect((await http.get('/trpc/chats.list')).status).toBe(200);
    await http.get('/trpc/no.such.procedure123');
    await http.get('/api/nothing/5550001');
    // The model fails once: a provider error, and a turn that ended in error.
    fake.behave({ status: 500 });
    await http.post(`/api/chats/${chat.id}/messages`, { content: 'And again' });
    // A reply that fails outright is removed (the user's message stays): wait for its turn to be counted.
    await eventually(async () => (await (await scrape(server.url, `Bearer ${token}`)).text()).includes('outcome="error"'), 20_000);
    fake.reset();
    // Two wrong passwords fill the username's budget; the third is refused by the limit.
    const stranger = new HttpClient(server.url);
    for (let i = 0; i < 3; i++) await stranger.post('/api/auth/login', { username, password: `wrong-${i}` });
    // A WebSocket stays open while scraping.
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie: http.cookieHeader, origin: server.url } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));

    const res = await scrape(server.url, `Bearer ${token}`);
    socket.close();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();

    const requests = labelsOf(text, 'http_request_duration_seconds_count');
    expect(requests).toEqual(expect.arrayContaining([
      { method: 'POST', route: '/api/chats/:id/messages', status: '201' },
      { method: 'GET', route: '/api/chats/:id/messages', status: '404' },
      { method: 'GET', route: '/api/chats/:id/messages', status: '200' },
      { method: 'POST', route: '/api/auth/register', status: '201' },
      { method: 'GET', route: '/trpc/chats.list', status: '200' },
      { method: 'POST', route: '/api/auth/login', status: '429' },
    ]));
    const routes = new Set(requests.map((r) => r.route));
    expect(routes.has('/trpc')).toBe(true); // the unknown procedure
    expect(routes.has('unmatched')).toBe(true); // the unknown /api path
    // No label anywhere holds an id, a user name or a raw path.
    const values = [...text.matchAll(/\w+="([^"]*)"/g)].map((m) => m[1]!);
    // (Sample values are left out: a number such as a GC duration may hold those digits by chance.)
    const withoutValues = text
      .split('\n')
      .map((line) => (line.startsWith('#') ? line : line.replace(/ \S+$/, '')))
      .join('\n');
    for (const raw of ['987654', '5550001', 'no.such.procedure123', username]) expect(withoutValues).not.toContain(raw);
    for (const value of values) expect(value).not.toMatch(new RegExp(`/${chat.id}(/|$)`));
    for (const route of routes) expect(route).toMatch(/^(\/[a-z0-9.:_-]*)+$|^unmatched$|^client$/i);

    expect(labelsOf(text, 'model_turns_total')).toEqual(expect.arrayContaining([
      { path: 'chat', provider: 'openai', outcome: 'complete' },
      { path: 'chat', provider: 'openai', outcome: 'error' },
    ]));
    expect(sampleOf(text, 'model_turn_first_token_seconds_count{path="chat"}')).toBeGreaterThanOrEqual(1);
    expect(sampleOf(text, 'model_turn_duration_seconds_count{path="chat"}')).toBeGreaterThanOrEqual(2);
    expect(sampleOf(text, 'provider_errors_total{provider="openai"}')).toBeGreaterThanOrEqual(1);
    expect(sampleOf(text, 'rate_limit_refusals_total{limit="loginPerUsername"}')).toBe(1);
    expect(sampleOf(text, 'websocket_connections{endpoint="/ws"}')).toBe(1);
    expect(sampleOf(text, 'reply_streams_active')).toBe(0);
    expect(sampleOf(text, 'db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    // The process defaults of prom-client.
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  }, 60_000);
});

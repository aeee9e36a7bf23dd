import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecurityEvent } from '../../src/server/db/entities/SecurityEvent.js';
import { recordSecurityEvent } from '../../src/server/features/security/securityEvents.js';
import { securityTexts } from '../../src/shared/texts/index.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The account's security activity: what the features record, GET /api/security-events
// (own events only, newest first, paged), the export, and the account's deletion.
let server: TestServer;
let graph: FakeGraph;
let count = 0;
const browser = 'Mozilla/5.0 (X11; Linux x86_64) SecurityTest/1.0';

beforeAll(async () => {
  graph = await startFakeGraph();
  server = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await graph?.close();
});

function uniqueName(prefix: string) {
  return `${prefix}_${++count}_${Date.now()}`;
}

async function kinds(http: HttpClient): Promise<string[]> {
  const res = await http.get('/api/security-events?limit=100');
  expect(res.status).toBe(200);
  return res.json.events.map((event: { kind: string }) => event.kind);
}

const trpcMutate = (http: HttpClient, path: string, input: unknown) => http.post(`/trpc/${path}`, input);

describe('security events', () => {
  it('records sign-in, failed sign-in, keys, export, Microsoft and sign-out with address and browser, newest first', async () => {
    const username = uniqueName('sec_life');
    const { http } = await signUp(server.url, username);
    const second = new HttpClient(server.url, { headers: { 'user-agent': browser } });
    expect((await second.post('/api/auth/login', { username, password: 'wrong-password' })).status).toBe(401);
    expect((await second.post('/api/auth/login', { username, password: 'secret123' })).status).toBe(200);

    const key = await http.post('/api/api-keys', { name: 'Script' });
    expect(key.status).toBe(201);
    expect((await http.delete(`/api/api-keys/${key.json.id}`)).status).toBe(204);
    expect((await trpcMutate(http, 'privacy.exportMyData', { format: 'json' })).status).toBe(200);

    const token = `token-${username}`;
    graph.addMailbox({ tokens: [token], mail: `${username}@contoso.example` });
    expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_email' })).status).toBe(200);
    expect((await http.post('/api/auth/microsoft/disconnect', { service: 'email' })).status).toBe(200);
    // Disconnecting what is not connected records nothing.
    expect((await http.post('/api/auth/microsoft/disconnect', { service: 'email' })).status).toBe(200);

    expect((await second.post('/api/auth/logout')).status).toBe(200);

    expect(await kinds(http)).toEqual([
      'sign_out',
      'microsoft_disconnected',
      'microsoft_connected',
      'data_exported',
      'api_key_revoked',
      'api_key_created',
      'sign_in',
      'sign_in_failed',
      'sign_in',
    ]);
    const { events } = (await http.get('/api/security-events')).json;
    const failed = events.find((event: { kind: string }) => event.kind === 'sign_in_failed');
    expect(failed).toEqual({ id: expect.any(Number), kind: 'sign_in_failed', createdAt: expect.any(String), address: '127.0.0.1', userAgent: browser });
    expect(Date.parse(events[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(events[events.length - 1].createdAt));
    // No secret rides along: not the key, not the Microsoft token, not the password.
    const text = JSON.stringify(events);
    expect(text).not.toContain(key.json.key);
    expect(text).not.toContain(token);
    expect(text).not.toContain('wrong-password');
  }, 60_000);

  it('records a session ended from another device, and signing out the others', async () => {
    const username = uniqueName('sec_sessions');
    const { http } = await signUp(server.url, username);
    const laptop = new HttpClient(server.url);
    await laptop.post('/api/auth/login', { username, password: 'secret123' });
    const phone = new HttpClient(server.url);
    await phone.post('/api/auth/login', { username, password: 'secret123' });
    const sessions = (await http.get('/trpc/auth.sessions')).json.result.data.sessions as { id: string; current: boolean }[];
    const other = sessions.find((s) => !s.current)!;
    expect((await trpcMutate(http, 'auth.endSession', { id: other.id })).status).toBe(200);
    expect((await trpcMutate(http, 'auth.endOtherSessions', {})).status).toBe(200);
    expect((await kinds(http)).slice(0, 2)).toEqual(['session_ended', 'session_ended']);
  }, 60_000);

  it('shows a user only their own events, whatever cursor they send', async () => {
    const jane = await signUp(server.url, uniqueName('sec_jane'));
    const sam = await signUp(server.url, uniqueName('sec_sam'));
    await sam.http.post('/api/api-keys', { name: 'Sam key' });
    const samEvents = (await sam.http.get('/api/security-events')).json.events as { id: number }[];
    expect(samEvents.length).toBe(2);

    const janeEvents = (await jane.http.get('/api/security-events')).json;
    expect(janeEvents.events.map((e: { kind: string }) => e.kind)).toEqual(['sign_in']);
    // A cursor past Sam's newest event still reads Jane's rows only.
    const probe = await jane.http.get(`/api/security-events?cursor=${samEvents[0]!.id + 1}`);
    expect(probe.json.events.every((e: { id: number }) => !samEvents.some((s) => s.id === e.id))).toBe(true);
    expect(probe.json.events).toHaveLength(1);
  });

  it('pages with nextCursor until the oldest event', async () => {
    const { http, user } = await signUp(server.url, uniqueName('sec_pages'));
    for (let i = 0; i < 24; i++) await recordSecurityEvent(server.deps, { userId: user.id, kind: 'sign_in', ip: `10.0.0.${i}`, userAgent: null });
    const first = await http.get('/api/security-events?limit=10');
    expect(first.json.events).toHaveLength(10);
    expect(first.json.events[0].address).toBe('10.0.0.23');
    const seen: number[] = first.json.events.map((e: { id: number }) => e.id);
    let cursor = first.json.nextCursor;
    while (cursor !== null) {
      const page = await http.get(`/api/security-events?limit=10&cursor=${cursor}`);
      seen.push(...page.json.events.map((e: { id: number }) => e.id));
      cursor = page.json.nextCursor;
    }
    expect(seen).toHaveLength(25); // 24 recorded here and the registration's sign-in
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    expect(new Set(seen).size).toBe(25);
    // The default page is 20.
    expect((await http.get('/api/security-events')).json.events).toHaveLength(20);
  });

  it('answers bad paging with 400 and a readable message, and refuses the signed-out and API keys', async () => {
    const { http } = await signUp(server.url, uniqueName('sec_bad'));
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=-1', 'cursor=1.5', 'cursor=', 'cursor=99999999999']) {
      const res = await http.get(`/api/security-events?${query}`);
      expect(res.status, query).toBe(400);
      expect([securityTexts.badLimit, securityTexts.badCursor], query).toContain(res.json.message);
    }
    expect((await new HttpClient(server.url).get('/api/security-events')).status).toBe(401);
    const key = (await http.post('/api/api-keys', { name: 'k' })).json.key as string;
    const script = new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${key}` } });
    expect((await script.get('/api/security-events')).status).toBe(403);
  });

  it('is in the export, and goes with the account', async () => {
    const { http, user } = await signUp(server.url, uniqueName('sec_gone'));
    await http.post('/api/api-keys', { name: 'k' });
    const exported = await trpcMutate(http, 'privacy.exportMyData', { format: 'json' });
    const file = JSON.parse(exported.json.result.data.content);
    expect(file.securityEvents.map((e: { kind: string }) => e.kind)).toEqual(['sign_in', 'api_key_created', 'data_exported']);
    expect(file.securityEvents[0]).toMatchObject({ kind: 'sign_in', address: '127.0.0.1', userId: user.id });

    expect((await trpcMutate(http, 'privacy.deleteAccount', { confirmation: 'DELETE' })).status).toBe(200);
    expect(await server.deps.orm.em.fork().count(SecurityEvent, { user: user.id })).toBe(0);
  });
});

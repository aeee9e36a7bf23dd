import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/server.js';
import { microsoftTexts } from '../../src/shared/texts/index.js';
import { startFakeEntra, type FakeEntra } from '../fakes/entra/index.js';
import { startFakeGraph, type FakeGraph, type FakeMailbox } from '../fakes/graph/index.js';
import { freshDatabase } from '../helpers/database.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The three ways to connect (browser with PKCE, device code, pasted token), connection status,
// refresh and disconnect, against the https fakes of Entra ID and Graph. Every answer the server
// gives here and every line it logs is kept, and none may hold a token or code the Entra fake made.
let graph: FakeGraph;
let entra: FakeEntra;
let server: TestServer;
let unconfigured: TestServer;
let signedInMailbox: FakeMailbox;
const logLines: string[] = [];
const answers: Array<{ what: string; text: string; headers: string[] }> = [];
/** The prefixes of the Entra fake's access tokens, refresh tokens, device codes and auth codes. */
const secretPattern = /fake-(at|rt|dc|code)-/;

/** A browser-like client whose every answer (body, headers, Set-Cookie) is kept for the secrets check. */
class RecordingClient extends HttpClient {
  override async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await super.request(method, path, body, headers);
    record(`${method} ${path.split('?')[0]}`, res);
    return res;
  }
}
function record(what: string, res: { text: string; headers: Headers }) {
  answers.push({ what, text: res.text, headers: [...[...res.headers].map(([k, v]) => `${k}: ${v}`), ...res.headers.getSetCookie().map((c) => `set-cookie: ${c}`)] });
}
async function signUp(baseUrl: string, username: string) {
  const http = new RecordingClient(baseUrl);
  const res = await http.post('/api/auth/register', { username, password: 'secret123', fullName: 'Test User' });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { http, user: res.json.user as { id: number } };
}
/** Another session (a second sign-in) of an existing user. */
async function signIn(baseUrl: string, username: string) {
  const http = new RecordingClient(baseUrl);
  expect((await http.post('/api/auth/login', { username, password: 'secret123' })).status).toBe(200);
  return http;
}

beforeAll(async () => {
  graph = await startFakeGraph();
  signedInMailbox = graph.addMailbox({ tokens: ['manual-token-ok'] });
  // Two minutes: inside the five-minute refresh window, so every use refreshes first.
  entra = await startFakeEntra({ clientId: 'test-client', accessTokenLifetime: 120, onAccessToken: (token) => graph.grant(token, signedInMailbox) });
  // The configured server logs at debug level into logLines.
  const configured = async (): Promise<TestServer> => {
    const db = await freshDatabase();
    const log = pino({ level: 'debug' }, new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } }));
    const running = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: db.dataDir,
        DATABASE_URL: db.databaseUrl,
        SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
        MICROSOFT_CLIENT_ID: 'test-client',
        MICROSOFT_AUTHORITY_HOST: entra.url,
        MICROSOFT_TENANT_ID: 'organizations',
        MICROSOFT_GRAPH_BASE_URL: graph.url,
        DEMO_MODE: 'false',
      }),
      { log },
    );
    return { ...running, database: db, stop: async () => { await running.close(); await db.dispose(); } };
  };
  [server, unconfigured] = await Promise.all([configured(), startTestServer({ MICROSOFT_GRAPH_BASE_URL: graph.url, DEMO_MODE: 'false' })]);
  // Two servers with fresh databases: slow on a loaded machine.
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await unconfigured?.stop();
  await entra?.close();
  await graph?.close();
});
beforeEach(() => {
  graph.reset();
  entra.approveAfterPolls(0);
  entra.setAccessTokenLifetime(null);
  entra.setTokenDelayMs(0);
});

/** No access token, refresh token, device code or auth code in any answer or log line so far. */
function expectNoSecretsSeen() {
  for (const answer of answers) {
    expect(answer.text, answer.what).not.toMatch(secretPattern);
    for (const header of answer.headers) expect(header, answer.what).not.toMatch(secretPattern);
  }
  for (const line of logLines) expect(line).not.toMatch(secretPattern);
}
afterEach(() => expectNoSecretsSeen());

const status = async (http: HttpClient) => (await http.get('/api/ai-coach/microsoft/connection-status')).json;

describe('connect with a pasted token', () => {
  it('checks the token against Graph /me and connects the service', async () => {
    const { http } = await signUp(server.url, 'manual_ok');
    const res = await http.post('/api/auth/microsoft/manual-token', { token: '  <p>manual-token-ok</p>\n', service: 'microsoft_email' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, userEmail: 'alex.morgan@contoso.example' });
    expect(res.text).not.toContain('manual-token-ok');
    expect((await status(http)).connections).toMatchObject({ email: { connected: true }, calendar: { connected: false }, teams: { connected: false } });
  });

  it('refuses an empty, HTML-only or refused token with a clear message and connects nothing', async () => {
    const { http } = await signUp(server.url, 'manual_bad');
    for (const token of ['', '   ', '<b></b>', 'has space inside', 'nul\u0000here', '\ud800lone']) {
      const res = await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_email' });
      expect(res.status, JSON.stringify(token)).toBe(400);
      // Text that cannot be stored is refused at the input boundary, naming the field.
      expect(res.json.message).toMatch(/valid token|not allowed|The field 'token' contains characters that cannot be stored/);
      // The product spec's REST calls reads `error` from this path's answer: the same text beside `message`.
      expect(res.json.error).toBe(res.json.message);
    }
    expect((await http.post('/api/auth/microsoft/manual-token', { token: 'unknown-token', service: 'microsoft_calendar' })).json).toEqual({ message: microsoftTexts.tokenRefused, error: microsoftTexts.tokenRefused });
    expect((await http.post('/api/auth/microsoft/manual-token', { token: 'x', service: 'skype' })).status).toBe(400);
    expect((await http.post('/api/auth/microsoft/manual-token', '{"token": [')).status).toBe(400);
    expect((await status(http)).connections.calendar.connected).toBe(false);
    expect((await status(http)).connections.email.connected).toBe(false);
  });

  it('works without a client id, while browser and device-code sign-in say they are not configured', async () => {
    const { http } = await signUp(unconfigured.url, 'unconfigured');
    expect(await http.get('/api/auth/microsoft/login?service=Microsoft%20Email')).toMatchObject({ status: 412, json: { message: microsoftTexts.notConfigured } });
    expect(await http.post('/api/auth/microsoft/device-code', { service: 'Microsoft Email' })).toMatchObject({ status: 412, json: { message: microsoftTexts.notConfigured } });
    expect((await http.post('/api/auth/microsoft/manual-token', { token: 'manual-token-ok' })).status).toBe(200);
    expect((await status(http)).signInConfigured).toBe(false);
  });

  it('needs a signed-in user', async () => {
    const anonymous = new HttpClient(server.url);
    expect((await anonymous.get('/api/ai-coach/microsoft/connection-status')).status).toBe(401);
    expect((await anonymous.post('/api/auth/microsoft/manual-token', { token: 'manual-token-ok' })).status).toBe(401);
  });
});

describe('device-code sign-in', () => {
  it('answers the code, stays pending until approved, then connects the service', async () => {
    const { http } = await signUp(server.url, 'device_ok');
    const start = await http.post('/api/auth/microsoft/device-code', { service: 'Microsoft Calendar' });
    expect(start.status).toBe(200);
    expect(start.json).toMatchObject({ userCode: expect.any(String), verificationUrl: `${entra.url}/devicelogin`, expiresIn: 900, interval: 5 });
    // Opaque: the device code itself is nowhere in the answer.
    expect(start.json.deviceCodeInfo).not.toMatch(/fake-dc-/);

    const pending = await http.post('/api/auth/microsoft/poll-token', { deviceCodeInfo: start.json.deviceCodeInfo });
    expect(pending.status).toBe(200);
    expect(pending.json).not.toHaveProperty('success');
    expect(pending.json).not.toHaveProperty('error');
    expect(pending.json).not.toHaveProperty('expired');

    entra.approveDeviceCode(start.json.userCode);
    const done = await http.post('/api/auth/microsoft/poll-token', { deviceCodeInfo: start.json.deviceCodeInfo });
    expect(done.json).toMatchObject({ success: true, service: 'Microsoft Calendar', userEmail: 'alex.morgan@contoso.example' });
    expect(done.text).not.toMatch(/fake-(at|rt)-/);
    expect((await status(http)).connections.calendar).toMatchObject({ connected: true, accountEmail: 'alex.morgan@contoso.example' });
  });

  it('says expired when the code expires', async () => {
    const { http } = await signUp(server.url, 'device_expired');
    const start = await http.post('/api/auth/microsoft/device-code', { service: 'Microsoft Email' });
    entra.expireDeviceCodes();
    const res = await http.post('/api/auth/microsoft/poll-token', { deviceCodeInfo: start.json.deviceCodeInfo });
    expect(res).toMatchObject({ status: 200, json: { expired: true } });
  });

  it('refuses a tampered or another user’s deviceCodeInfo', async () => {
    const owner = await signUp(server.url, 'device_owner');
    const other = await signUp(server.url, 'device_other');
    const start = await owner.http.post('/api/auth/microsoft/device-code', { service: 'Microsoft Email' });
    const info = start.json.deviceCodeInfo as string;
    const tampered = info.slice(0, -4) + (info.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(await owner.http.post('/api/auth/microsoft/poll-token', { deviceCodeInfo: tampered })).toMatchObject({ status: 400, json: { message: microsoftTexts.badDeviceCodeInfo } });
    expect(await owner.http.post('/api/auth/microsoft/poll-token', { deviceCodeInfo: 'not sealed' })).toMatchObject({ status: 400 });
    expect(await owner.http.post('/api/auth/microsoft/poll-token', {})).toMatchObject({ status: 400 });
    entra.approveDeviceCode(start.json.userCode);
    expect(await other.http.post('/api/auth/microsoft/poll-token', { deviceCodeInfo: info })).toMatchObject({ status: 403, json: { message: microsoftTexts.foreignDeviceCodeInfo } });
    expect((await status(other.http)).connections.email.connected).toBe(false);
  });

  it('refuses an unknown service name', async () => {
    const { http } = await signUp(server.url, 'device_service');
    expect(await http.post('/api/auth/microsoft/device-code', { service: 'Skype' })).toMatchObject({ status: 400, json: { message: microsoftTexts.unknownService } });
  });
});

describe('browser sign-in', () => {
  async function signInWithBrowser(http: HttpClient, service = 'Microsoft Email', callbackClient = http) {
    const login = await http.get(`/api/auth/microsoft/login?service=${encodeURIComponent(service)}`);
    expect(login.status).toBe(200);
    const authUrl = new URL(login.json.authUrl);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('redirect_uri')).toBe(`${server.url}/api/auth/microsoft/callback`);
    // The identity platform signs the fake account in and redirects back with a code.
    const authorize = await fetch(authUrl, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    return callbackClient.get(back.pathname + back.search);
  }

  it('connects the service with PKCE and lands on integration-success', async () => {
    const { http } = await signUp(server.url, 'browser_ok');
    const callback = await signInWithBrowser(http, 'Microsoft Teams');
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/integrations?connected=teams#integration-success');
    expect((await status(http)).connections.teams.connected).toBe(true);
  });

  it('redirects the callback to a page whose hash holds integration-success', async () => {
    const { http } = await signUp(server.url, 'browser_hash');
    const login = await http.get('/api/auth/microsoft/login?service=Microsoft%20Email');
    const authorize = await fetch(login.json.authUrl, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    const res = await fetch(server.url + back.pathname + back.search, { redirect: 'manual', headers: { cookie: http.cookieHeader } });
    record('GET /api/auth/microsoft/callback', { text: await res.text(), headers: res.headers });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/integrations?connected=email#integration-success');
  });

  it('never stores tokens for whoever replays the callback', async () => {
    const victim = await signUp(server.url, 'browser_starter');
    const attacker = await signUp(server.url, 'browser_replayer');
    await signInWithBrowser(victim.http, 'Microsoft Email', attacker.http);
    expect((await status(attacker.http)).connections.email.connected).toBe(false);
    expect((await status(victim.http)).connections.email.connected).toBe(false);
    const res = await attacker.http.get('/api/auth/microsoft/callback?code=x&state=forged');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/integrations#integration-error=/);
    expect((await status(attacker.http)).connections.email.connected).toBe(false);
  });

  it('connects only when the callback comes back in the session that started the sign-in', async () => {
    const { http } = await signUp(server.url, 'browser_sessions');
    const otherSession = await signIn(server.url, 'browser_sessions');
    const elsewhere = await signInWithBrowser(http, 'Microsoft Email', otherSession);
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.headers.get('location')).toBe(`/integrations#integration-error=${encodeURIComponent(microsoftTexts.badState)}`);
    expect((await status(otherSession)).connections.email.connected).toBe(false);
    expect((await status(http)).connections.email.connected).toBe(false);
    // The other way round too; and in its own session the same sign-in connects.
    expect((await signInWithBrowser(otherSession, 'Microsoft Email', http)).headers.get('location')).toMatch(/^\/integrations#integration-error=/);
    expect((await signInWithBrowser(otherSession, 'Microsoft Email')).headers.get('location')).toBe('/integrations?connected=email#integration-success');
    expect((await status(http)).connections.email.connected).toBe(true);
  });
});

describe('refresh and disconnect', () => {
  it('refreshes a token about to expire, and marks the service for reconnecting when the refresh needs the user', async () => {
    const { http } = await signUp(server.url, 'refresh_user');
    const start = await http.post('/api/auth/microsoft/device-code', { service: 'Microsoft Email' });
    entra.approveDeviceCode(start.json.userCode);
    await http.post('/api/auth/microsoft/poll-token', { deviceCodeInfo: start.json.deviceCodeInfo });
    const before = entra.tokenRequests.filter((r) => r.grantType === 'refresh_token' && r.status === 200).length;

    expect((await http.get('/api/microsoft-email/folders')).status).toBe(200);
    expect(entra.tokenRequests.filter((r) => r.grantType === 'refresh_token' && r.status === 200).length).toBe(before + 1);

    entra.revokeRefreshTokens();
    const refused = await http.get('/api/microsoft-email/folders');
    expect(refused).toMatchObject({ status: 412, json: { message: microsoftTexts.reconnect } });
    expect((await http.get('/api/microsoft-email/folders'))).toMatchObject({ status: 412, json: { message: microsoftTexts.notConnected } });
    expect((await status(http)).connections.email).toMatchObject({ connected: false, needsReconnect: true });
  });

  it('refreshes once when many requests arrive together near expiry', async () => {
    const { http } = await signUp(server.url, 'refresh_together');
    const start = await http.post('/api/auth/microsoft/device-code', { service: 'Microsoft Email' });
    entra.approveDeviceCode(start.json.userCode);
    expect((await http.post('/api/auth/microsoft/poll-token', { deviceCodeInfo: start.json.deviceCodeInfo })).json.success).toBe(true);
    // The stored token expires in two minutes (inside the refresh window); the refreshed one lives
    // an hour. A slow token endpoint makes the requests overlap the refresh.
    entra.setAccessTokenLifetime(3600);
    entra.setTokenDelayMs(300);
    const refreshes = () => entra.tokenRequests.filter((r) => r.grantType === 'refresh_token').length;
    const before = refreshes();
    const results = await Promise.all(Array.from({ length: 6 }, () => http.get('/api/microsoft-graph/real-emails')));
    for (const res of results) expect(res.status, res.text).toBe(200);
    expect(refreshes()).toBe(before + 1);
    expect((await status(http)).connections.email).toMatchObject({ connected: true });
    expect((await http.get('/api/microsoft-graph/real-emails')).status).toBe(200);
    expect(refreshes()).toBe(before + 1);
  });

  it('deletes the service tokens on disconnect', async () => {
    const { http } = await signUp(server.url, 'disconnect_user');
    await http.post('/api/auth/microsoft/manual-token', { token: 'manual-token-ok', service: 'microsoft_email' });
    expect((await http.post('/api/auth/microsoft/disconnect', { service: 'email' })).status).toBe(200);
    expect((await status(http)).connections.email.connected).toBe(false);
    const rows = await server.deps.orm.em.fork().getConnection().execute("select count(*)::int as n from microsoft_connection c join app_user u on u.id = c.user_id where u.username = 'disconnect_user'");
    expect(rows[0].n).toBe(0);
    expect((await http.get('/api/microsoft-email/folders')).status).toBe(412);
    expect((await http.post('/api/auth/microsoft/disconnect', { service: 'fax' })).status).toBe(400);
  });
});

describe('secrets', () => {
  it('kept every answer and log line of the sign-ins and refreshes above, and none holds a token or code', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(answers.some((a) => a.what === 'POST /api/auth/microsoft/poll-token')).toBe(true);
    expect(answers.some((a) => a.what === 'GET /api/auth/microsoft/callback')).toBe(true);
    expect(answers.some((a) => a.headers.some((h) => h.startsWith('set-cookie: ')))).toBe(true);
    expect(entra.tokenRequests.some((r) => r.grantType === 'refresh_token' && r.status === 200)).toBe(true);
    expectNoSecretsSeen();
  });
});

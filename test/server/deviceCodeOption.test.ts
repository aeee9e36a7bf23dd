import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { microsoftTexts } from '../../src/shared/texts/index.js';
import { startFakeEntra, type FakeEntra } from '../fakes/entra/index.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// Issue 48, item 10: device-code connect lets one user send another a code that signs in under
// this app's name. MICROSOFT_DEVICE_CODE=on|off turns it on or off; unset, it is off once the app
// has a client secret (it can use the browser sign-in) and on without one. Off, the device-code
// endpoints answer 403 with a sentence a person understands, and the connection status tells the
// client not to offer it; the browser sign-in stays.

let graph: FakeGraph;
let entra: FakeEntra;
let withSecret: TestServer;
let withSecretOn: TestServer;
let publicOff: TestServer;

const microsoft = () => ({
  MICROSOFT_CLIENT_ID: 'test-client',
  MICROSOFT_AUTHORITY_HOST: entra.url,
  MICROSOFT_TENANT_ID: 'organizations',
  MICROSOFT_GRAPH_BASE_URL: graph.url,
  DEMO_MODE: 'false',
});

beforeAll(async () => {
  graph = await startFakeGraph();
  entra = await startFakeEntra({ clientId: 'test-client' });
  [withSecret, withSecretOn, publicOff] = await Promise.all([
    startTestServer({ ...microsoft(), MICROSOFT_CLIENT_SECRET: 'a-client-secret' }),
    startTestServer({ ...microsoft(), MICROSOFT_CLIENT_SECRET: 'a-client-secret', MICROSOFT_DEVICE_CODE: 'on' }),
    startTestServer({ ...microsoft(), MICROSOFT_DEVICE_CODE: 'off' }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([withSecret?.stop(), withSecretOn?.stop(), publicOff?.stop()]);
  await entra?.close();
  await graph?.close();
});

async function signUp(server: TestServer, username: string) {
  const http = new HttpClient(server.url);
  const res = await http.post('/api/auth/register', { username, password: 'secret123', fullName: 'Test User' });
  expect(res.status).toBe(201);
  return http;
}

describe('MICROSOFT_DEVICE_CODE', () => {
  it('defaults to off with a client secret and on without one; takes on or off, nothing else', () => {
    const base = { SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789', MICROSOFT_CLIENT_ID: 'c' };
    expect(loadConfig(base).microsoft.deviceCode).toBe(true);
    expect(loadConfig({ ...base, MICROSOFT_CLIENT_SECRET: 's' }).microsoft.deviceCode).toBe(false);
    expect(loadConfig({ ...base, MICROSOFT_CLIENT_SECRET: 's', MICROSOFT_DEVICE_CODE: 'on' }).microsoft.deviceCode).toBe(true);
    expect(loadConfig({ ...base, MICROSOFT_DEVICE_CODE: 'off' }).microsoft.deviceCode).toBe(false);
    expect(() => loadConfig({ ...base, MICROSOFT_DEVICE_CODE: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, MICROSOFT_DEVICE_CODE: 'maybe' })).toThrow(/MICROSOFT_DEVICE_CODE: must be on or off/);
  });

  it('off by default with a client secret: 403 with a clear message, not offered, browser sign-in kept', async () => {
    const http = await signUp(withSecret, 'dc_secret');
    const start = await http.post('/api/auth/microsoft/device-code', { service: 'Microsoft Email' });
    expect(start).toMatchObject({ status: 403, json: { message: microsoftTexts.deviceCodeOff } });
    // A deviceCodeInfo sealed elsewhere is refused the same way, before it is read.
    expect(await http.post('/api/auth/microsoft/poll-token', { deviceCodeInfo: 'anything' })).toMatchObject({ status: 403, json: { message: microsoftTexts.deviceCodeOff } });
    const status = (await http.get('/api/ai-coach/microsoft/connection-status')).json;
    expect(status).toMatchObject({ signInConfigured: true, deviceCodeSignIn: false });
    const login = await http.get('/api/auth/microsoft/login?service=Microsoft%20Email');
    expect([200, 302]).toContain(login.status);
  });

  it('off when set off, even without a client secret', async () => {
    const http = await signUp(publicOff, 'dc_off');
    expect(await http.post('/api/auth/microsoft/device-code', { service: 'Microsoft Calendar' })).toMatchObject({ status: 403, json: { message: microsoftTexts.deviceCodeOff } });
    expect((await http.get('/api/ai-coach/microsoft/connection-status')).json).toMatchObject({ signInConfigured: true, deviceCodeSignIn: false });
  });

  it('on when set on with a client secret: a code is given and its poll answers', async () => {
    const http = await signUp(withSecretOn, 'dc_on');
    expect((await http.get('/api/ai-coach/microsoft/connection-status')).json).toMatchObject({ signInConfigured: true, deviceCodeSignIn: true });
    const start = await http.post('/api/auth/microsoft/device-code', { service: 'Microsoft Email' });
    expect(start.status).toBe(200);
    expect(start.json).toMatchObject({ userCode: expect.any(String), deviceCodeInfo: expect.any(String) });
    const poll = await http.post('/api/auth/microsoft/poll-token', { deviceCodeInfo: start.json.deviceCodeInfo });
    expect(poll.status).toBe(200);
  });
});

import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { publicPushHosts } from '../../src/server/config.js';
import { PushSubscription } from '../../src/server/db/entities/Nudge.js';
import { maxPushSubscriptions } from '../../src/server/features/nudges/push.js';
import { isPublicAddress } from '../../src/server/features/nudges/pushHosts.js';
import { defaultNudgeSettings } from '../../src/shared/schemas/nudges.js';
import { limitTexts, nudgesTexts } from '../../src/shared/texts/index.js';
import { fakeResolver } from '../fakes/dns.js';
import { startFakePushService, type FakePushService } from '../fakes/push.js';
import { eventually, signUp } from '../helpers/clients.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import { startTestServer, type HttpClient, type TestServer } from '../helpers/server.js';

// What a push subscription and 'run now' let an account do to the server and to other accounts,
// through the real server: endpoints only on the push services' hosts (WEB_PUSH_ALLOWED_HOSTS;
// here the operator adds `localhost`, where the local push service listens), a public service's
// host that resolves inside the network refused before any connection, fixed failure reasons, an
// endpoint kept by its owner, the cap on subscriptions, the limit on run now, and one user's
// black-holed push service holding no other user's run.

vi.setConfig({ testTimeout: 60_000 });

let database: FreshDatabase;
let server: TestServer;
let push: FakePushService;
const queueClock = new TestClock();
// fcm.googleapis.com made to resolve to this machine, as a poisoned or internal resolver would.
const resolver = fakeResolver({ 'fcm.googleapis.com': ['127.0.0.1'], 'updates.push.services.mozilla.com': ['10.0.0.7'], localhost: ['127.0.0.1'] });
let users = 0;

beforeAll(async () => {
  push = await startFakePushService({ hostName: 'localhost' });
  database = await freshDatabase();
  server = await startTestServer(
    { DEMO_MODE: 'false', WEB_PUSH_ALLOWED_HOSTS: [...publicPushHosts, 'localhost'].join(','), RATE_LIMIT_NUDGE_RUNS_PER_HOUR: '3' },
    database,
    { queueClock, hostLookup: resolver.lookup },
  );
});
afterAll(async () => {
  await server?.stop();
  await database?.dispose();
  await push?.close();
});
beforeEach(async () => {
  await queueClock.setTime(Date.now());
});

const newUser = async (prefix = 'pushsec') => signUp(server.url, `${prefix}_${++users}_${Date.now() % 100000}`);
const keys = () => push.subscribe().keys;
const runsOf = async (http: HttpClient) => (await http.get('/api/nudges/runs')).json.runs as Array<{ id: number; status: string; channels: string[]; reason: string | null }>;
const pushOn = async (http: HttpClient) => expect((await http.put('/api/nudges/settings', { ...defaultNudgeSettings, channels: { email: false, push: true, call: false } })).status).toBe(200);
const finished = async (http: HttpClient, runId: number, within = 20_000) => eventually(async () => (await runsOf(http)).find((r) => r.id === runId && r.status !== 'queued'), within);

describe('push endpoints', () => {
  it('refuses endpoints inside the network and hosts off the list with a 400, and takes a public service’s without a lookup', async () => {
    const { http } = await newUser();
    const inside = [
      'https://127.0.0.1:6443/api/v1/secrets',
      'https://10.0.0.1/',
      'https://[::1]:5432/',
      'https://169.254.169.254/latest/meta-data/',
      'https://kubernetes.default.svc/push',
      'https://0x7f000001/push', // 127.0.0.1 written another way
      'https://fcm.googleapis.com.attacker.example/x', // a name that only starts like a service's
      'https://push.apple.com/x', // the domain itself is not under `*.push.apple.com`
    ];
    for (const endpoint of inside) {
      const res = await http.post('/api/push/subscriptions', { endpoint, keys: keys() });
      expect(res.status, endpoint).toBe(400);
      expect(res.json.message).toBe(nudgesTexts.pushHostNotAllowed);
    }
    expect(await server.deps.orm.em.fork().count(PushSubscription, {})).toBe(0);

    const asked = resolver.asked.length;
    for (const endpoint of ['https://fcm.googleapis.com/fcm/send/abc:def', 'https://updates.push.services.mozilla.com/wpush/v2/xyz', 'https://web.push.apple.com/QGx', 'https://wns2-by3p.notify.windows.com/w/?token=abc']) {
      expect((await http.post('/api/push/subscriptions', { endpoint, keys: keys() })).status, endpoint).toBe(201);
    }
    // The operator's host, where the local push service listens.
    expect((await http.post('/api/push/subscriptions', push.subscribe())).status).toBe(201);
    // No DNS at subscription.
    expect(resolver.asked.length).toBe(asked);
  });

  it('classes only public unicast addresses as public', () => {
    for (const address of ['8.8.8.8', '142.250.74.106', '2a00:1450:4007:80e::200a']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '198.18.0.1', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', '64:ff9b::a00:1'])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('refuses a delivery whose host resolves to a private address, before connecting, with a fixed reason', async () => {
    const { http } = await newUser('private');
    await pushOn(http);
    const port = new URL(push.url).port;
    const browser = push.subscribe();
    // A public service's name, resolving to this machine, at the port the local service listens on.
    const endpoint = `https://fcm.googleapis.com:${port}${new URL(browser.endpoint).pathname}`;
    expect((await http.post('/api/push/subscriptions', { endpoint, keys: browser.keys })).status).toBe(201);
    const connections = push.connections;
    const run = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    expect(run.status).toBe(202);
    const first = await eventually(async () => (await runsOf(http)).find((r) => r.id === run.json.runId && r.reason), 20_000);
    expect(first.reason).toBe(nudgesTexts.reasonRetrying(1, nudgesTexts.reasonPushUnreachable));
    expect(resolver.asked).toContain('fcm.googleapis.com');
    expect(push.connections).toBe(connections);
    expect(push.received.filter((p) => p.endpoint === browser.endpoint)).toEqual([]);
  });

  it('records a push service’s refusal as a fixed reason, never its answer', async () => {
    const { http } = await newUser('refused');
    await pushOn(http);
    const browser = push.subscribe();
    // A key that is not the browser's: the service cannot decrypt the push and answers 400 with its reason.
    const other = push.subscribe();
    expect((await http.post('/api/push/subscriptions', { endpoint: browser.endpoint, keys: other.keys })).status).toBe(201);
    const run = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    const first = await eventually(async () => (await runsOf(http)).find((r) => r.id === run.json.runId && r.reason), 20_000);
    expect(push.refused.some((r) => r.endpoint === browser.endpoint && r.status === 400)).toBe(true);
    expect(first.reason).toBe(nudgesTexts.reasonRetrying(1, nudgesTexts.reasonPushRefused));
  });

  it('keeps an endpoint with the account that subscribed it when another account posts it', async () => {
    const owner = await newUser('owner');
    const other = await newUser('taker');
    const browser = push.subscribe();
    expect((await owner.http.post('/api/push/subscriptions', browser)).status).toBe(201);
    const taken = await other.http.post('/api/push/subscriptions', { endpoint: browser.endpoint, keys: keys() });
    expect(taken.status).toBe(409);
    expect(taken.json.message).toBe(nudgesTexts.pushEndpointTaken);
    const row = await server.deps.orm.em.fork().findOneOrFail(PushSubscription, { endpoint: browser.endpoint });
    expect(row.owner.id).toBe(owner.user.id);
    expect(row.p256dh).toBe(browser.keys.p256dh);
    // The owner's nudge still reaches the browser, and the owner's DELETE still finds it.
    await pushOn(owner.http);
    const run = await owner.http.post('/api/nudges/run', { kind: 'weekly_review' });
    expect(await finished(owner.http, run.json.runId)).toMatchObject({ status: 'sent', channels: ['app', 'push'] });
    expect(push.received.filter((p) => p.endpoint === browser.endpoint)).toHaveLength(1);
    expect((await other.http.request('DELETE', '/api/push/subscriptions', { endpoint: browser.endpoint })).status).toBe(404);
    expect((await owner.http.request('DELETE', '/api/push/subscriptions', { endpoint: browser.endpoint })).status).toBe(204);
  });

  it(`holds an account to ${maxPushSubscriptions} push subscriptions, in parallel too`, async () => {
    const { http, user } = await newUser('many');
    const answers = await Promise.all(Array.from({ length: maxPushSubscriptions + 5 }, () => http.post('/api/push/subscriptions', push.subscribe())));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(maxPushSubscriptions);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.json.message).toBe(nudgesTexts.tooManyPushSubscriptions(maxPushSubscriptions));
    expect(await server.deps.orm.em.fork().count(PushSubscription, { owner: user.id })).toBe(maxPushSubscriptions);
  });
});

describe('run now', () => {
  it('answers 429 past its limit an hour, with a clear message and Retry-After, and queues nothing more', async () => {
    const { http } = await newUser('runs');
    for (let i = 0; i < 3; i++) expect((await http.post('/api/nudges/run', { kind: 'weekly_review' })).status).toBe(202);
    const before = (await runsOf(http)).length;
    const refused = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.json.message).toBe(limitTexts.tooManyNudgeRuns(3, 60));
    expect((await runsOf(http)).length).toBe(before);
    // Another user's runs are their own.
    expect((await (await newUser('runs_other')).http.post('/api/nudges/run', { kind: 'weekly_review' })).status).toBe(202);
  });

  it('does not hold one user’s run while another user’s push service black-holes', async () => {
    const stalled = await newUser('stalled');
    await pushOn(stalled.http);
    for (let i = 0; i < 2; i++) {
      const browser = push.subscribe();
      push.blackHole(browser.endpoint);
      expect((await stalled.http.post('/api/push/subscriptions', browser)).status).toBe(201);
    }
    const victim = await newUser('victim');
    const slow = await stalled.http.post('/api/nudges/run', { kind: 'weekly_review' });
    await new Promise((resolve) => setTimeout(resolve, 500)); // its pushes are under way
    const started = Date.now();
    const run = await victim.http.post('/api/nudges/run', { kind: 'weekly_review' });
    expect(await finished(victim.http, run.json.runId, 4_000)).toMatchObject({ status: 'sent', channels: ['app'] });
    expect(Date.now() - started).toBeLessThan(4_000);
    // The black-holed pushes time out (both at once, a few seconds), and that run is retried.
    const retried = await eventually(async () => (await runsOf(stalled.http)).find((r) => r.id === slow.json.runId && r.reason), 15_000);
    expect(retried.reason).toBe(nudgesTexts.reasonRetrying(1, nudgesTexts.reasonPushUnreachable));
    expect(Date.now() - started).toBeLessThan(9_000);
  });
});

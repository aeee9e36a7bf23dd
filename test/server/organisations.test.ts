import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MicrosoftConnection } from '../../src/server/db/entities/MicrosoftConnection.js';
import { NudgeRun } from '../../src/server/db/entities/Nudge.js';
import { User } from '../../src/server/db/entities/User.js';
import { UserSettings } from '../../src/server/db/entities/UserSettings.js';
import { userIdOfVerifiedPhone } from '../../src/server/features/phone/index.js';
import { claimDueReminders } from '../../src/server/features/goals/goalReminders.js';
import { appRouter } from '../../src/server/trpc/root.js';
import { microsoftSignInTexts, organisationTexts } from '../../src/shared/texts/index.js';
import { startFakeEntra, type FakeEntra } from '../fakes/entra/index.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket } from '../helpers/trust.js';

// The organisation's administration through the real server: every admin procedure answers 403 to
// a member and to any API key (an admin's own included) and 401 without a session; ORG_ADMINS and
// an admin name admins; a user made by SCIM signs in with Microsoft into that same account; and
// deprovisioning ends that person's live session, open socket and API key at once and cancels
// their queued nudges.

vi.setConfig({ testTimeout: 60_000 });

let graph: FakeGraph;
let entra: FakeEntra;
let server: TestServer;
let boss: HttpClient;
let member: HttpClient;
let memberId: number;
let bossKey: string;
let memberKey: string;

const tenant = '11111111-2222-3333-4444-555555555555';

beforeAll(async () => {
  graph = await startFakeGraph();
  entra = await startFakeEntra({ clientId: 'test-client', onAccessToken: (token, account) => graph.grant(token, graph.addMailbox({ tokens: [], mail: account, displayName: account })) });
  server = await startTestServer({
    DEMO_MODE: 'false',
    ORG_ADMINS: 'Boss, someone@else.example',
    MICROSOFT_CLIENT_ID: 'test-client',
    MICROSOFT_AUTHORITY_HOST: entra.url,
    MICROSOFT_TENANT_ID: 'organizations',
    MICROSOFT_GRAPH_BASE_URL: graph.url,
  });
  ({ http: boss } = await signUp(server.url, 'boss', 'The Boss'));
  const signedUp = await signUp(server.url, 'plain_member', 'Plain Member');
  member = signedUp.http;
  memberId = signedUp.user.id;
  bossKey = (await boss.post('/api/api-keys', { name: 'boss key', scopes: ['chat', 'goals', 'memories'] })).json.key;
  memberKey = (await member.post('/api/api-keys', { name: 'member key' })).json.key;
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await entra?.close();
  await graph?.close();
});

const adminProcedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: 'query' | 'mutation' | 'subscription' } }>)
  .filter(([path]) => path.startsWith('admin.'))
  .map(([path, procedure]) => ({ path, type: procedure._def.type }));

function call(http: HttpClient, procedure: { path: string; type: string }, headers: Record<string, string> = {}) {
  return procedure.type === 'query' ? http.get(`/trpc/${procedure.path}`, headers) : http.post(`/trpc/${procedure.path}`, {}, headers);
}

describe('who may administer', () => {
  it('lists the admin procedures (this test covers each one added later)', () => {
    expect(adminProcedures.map((p) => p.path).sort()).toEqual(['admin.analytics', 'admin.audit', 'admin.createProgram', 'admin.createScimToken', 'admin.endProgram', 'admin.inviteMembers', 'admin.members', 'admin.organisation', 'admin.programs', 'admin.revokeScimToken', 'admin.scimTokens', 'admin.setMemberRole', 'admin.updateOrganisation']);
  });

  it.each(adminProcedures)('$path answers 403 to a member, 403 to any API key and 401 without a session', async (procedure) => {
    const asMember = await call(member, procedure);
    expect(asMember.status, asMember.text).toBe(403);
    expect(asMember.json.error.message).toBe(organisationTexts.adminsOnly);
    for (const key of [memberKey, bossKey]) {
      const withKey = await call(new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${key}` } }), procedure);
      expect(withKey.status, withKey.text).toBe(403);
    }
    expect((await call(new HttpClient(server.url), procedure)).status).toBe(401);
  });

  it('answers the REST paths the same way: 201 for an admin, 403 for a member and a key, 401 without a session', async () => {
    const created = await boss.post('/api/admin/scim-tokens');
    expect(created.status).toBe(201);
    expect(created.json.token).toMatch(/^scim_/);
    expect((await member.post('/api/admin/scim-tokens')).status).toBe(403);
    expect((await new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${bossKey}` } }).post('/api/admin/scim-tokens')).status).toBe(403);
    expect((await new HttpClient(server.url).post('/api/admin/scim-tokens')).status).toBe(401);
    for (const path of ['/api/admin/scim-tokens', '/api/admin/members', '/api/admin/organisation', '/api/admin/analytics']) {
      expect((await member.get(path)).status).toBe(403);
      expect((await new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${bossKey}` } }).get(path)).status).toBe(403);
      expect((await new HttpClient(server.url).get(path)).status).toBe(401);
    }
    // The token is kept hashed: the list has no token, the database no token either.
    const list = await boss.get('/api/admin/scim-tokens');
    expect(JSON.stringify(list.json)).not.toContain(created.json.token);
    const rows = await server.deps.orm.em.fork().getConnection().execute('select * from scim_token');
    expect(JSON.stringify(rows)).not.toContain(created.json.token);
  });

  it('makes the one ORG_ADMINS names an admin, and an admin can name another', async () => {
    expect((await boss.get('/trpc/auth.session')).json.result.data.orgAdmin).toBe(true);
    expect((await member.get('/trpc/auth.session')).json.result.data.orgAdmin).toBe(false);
    const members = (await boss.get('/api/admin/members')).json.members as Array<{ id: number; username: string; role: string; adminByOperator: boolean; state: string }>;
    expect(members.find((m) => m.username === 'boss')).toMatchObject({ role: 'admin', adminByOperator: true, state: 'active' });
    expect(members.find((m) => m.id === memberId)).toMatchObject({ role: 'member', state: 'active' });
    // What a member list holds: who and their state, nothing they wrote.
    expect(Object.keys(members[0]!).sort()).toEqual(['adminByOperator', 'createdAt', 'deprovisionedAt', 'email', 'fullName', 'id', 'provisioned', 'role', 'state', 'username']);

    const { http: deputy, user } = await signUp(server.url, 'deputy', 'Deputy');
    expect((await deputy.get('/api/admin/members')).status).toBe(403);
    expect((await boss.put(`/api/admin/members/${user.id}/role`, { role: 'admin' })).status).toBe(200);
    expect((await deputy.get('/api/admin/members')).status).toBe(200);
    // The operator's admin stays one whatever an admin says.
    const bossId = members.find((m) => m.username === 'boss')!.id;
    expect((await deputy.put(`/api/admin/members/${bossId}/role`, { role: 'member' })).json).toMatchObject({ role: 'admin', adminByOperator: true });
    expect((await boss.put(`/api/admin/members/${user.id}/role`, { role: 'member' })).status).toBe(200);
    expect((await deputy.get('/api/admin/members')).status).toBe(403);
  });
});

describe('what an admin reads', () => {
  it("never holds a member's text: no chat, message, goal, memory or rehearsal of theirs in any admin answer (the analytics and their breakdowns included)", async () => {
    const marker = `private-${Date.now().toString(36)}`;
    const chat = await member.post('/api/chats', { title: `Chat ${marker}` });
    expect(chat.status).toBe(201);
    expect((await member.post(`/api/chats/${chat.json.id}/messages`, { content: `My secret worry ${marker}` })).status).toBe(201);
    expect((await member.post('/api/goals', { title: `Goal ${marker}`, framework: 'SMART', dueDate: '2027-01-31', keyResults: [] })).status).toBe(201);
    expect((await member.post('/api/memories', { text: `Remember ${marker}` })).status).toBe(201);
    const rehearsal = await member.post('/api/rehearsals', { counterpart: { name: `Casey ${marker}` }, situation: `Asking for ${marker}`, goal: `Agree ${marker}`, difficulty: 'realistic' });
    expect(rehearsal.status, rehearsal.text).toBe(201);
    const answers = [];
    for (const procedure of adminProcedures.filter((p) => p.type === 'query')) {
      const res = await call(boss, procedure);
      expect(res.status, procedure.path).toBe(200);
      answers.push(res.text);
    }
    for (const path of ['/api/admin/members', '/api/admin/organisation', '/api/admin/scim-tokens', '/api/admin/analytics', '/api/admin/analytics?by=department', '/api/admin/analytics?by=manager']) answers.push((await boss.get(path)).text);
    for (const text of answers) expect(text).not.toContain(marker);
  });
});

describe('a provisioned person', () => {
  let token: string;
  const scim = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/scim/v2${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  async function signInWithMicrosoft(username: string, objectId?: string) {
    entra.setAccount({ username, tenantId: tenant, ...(objectId ? { objectId } : {}) });
    const http = new HttpClient(server.url);
    const start = await http.get('/api/auth/microsoft/sign-in');
    const authorize = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    const callback = await http.get(back.pathname + back.search);
    return { http, location: callback.headers.get('location') };
  }

  beforeAll(async () => {
    token = (await boss.post('/api/admin/scim-tokens')).json.token;
  });

  it('signs in with Microsoft into the account SCIM made (by externalId = object id), and deprovisioning ends its session, socket, key and queued nudges', async () => {
    const objectId = 'aaaaaaaa-bbbb-cccc-dddd-000000000001';
    const created = await scim('POST', '/Users', { userName: 'sam.provisioned@contoso.example', externalId: objectId, displayName: 'Sam Provisioned', emails: [{ value: 'sam@contoso.example', primary: true }], active: true });
    expect(created.status).toBe(201);
    const userId = Number(created.json.id);

    const { http, location } = await signInWithMicrosoft('sam.other-upn@contoso.example', objectId);
    expect(location).toBe('/app');
    const session = (await http.get('/api/auth/session')).json;
    expect(session.user).toMatchObject({ id: userId, fullName: 'Sam Provisioned' });
    const key = (await http.post('/api/api-keys', { name: 'script' })).json.key as string;
    expect((await http.post('/api/goals', { title: 'Weekly one-to-ones', framework: 'SMART', dueDate: '2027-01-31', keyResults: [], cadence: 'weekly' })).status).toBe(201);
    const script = new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${key}` } });
    expect((await script.get('/api/chats')).status).toBe(200);
    const socket = openSocket('/ws', http.cookieHeader, server.url);
    expect(await socket.outcome).toBe('open');
    const now = new Date();
    const run = server.deps.orm.em.fork();
    run.create(NudgeRun, { owner: userId, kind: 'weekly_review', status: 'queued', trigger: 'manual', channels: ['app', 'call'], dueAt: new Date(now.getTime() + 3_600_000), attempts: 0, createdAt: now, updatedAt: now });
    await run.flush();

    // The sign-in connected their mail and calendar.
    expect(await server.deps.orm.em.fork().count(MicrosoftConnection, { user: userId })).toBe(2);

    const patched = await scim('PATCH', `/Users/${userId}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(patched.status).toBe(200);

    expect(await socket.closed).toBe(4401);
    expect((await http.get('/api/chats')).status).toBe(401);
    expect((await script.get('/api/chats')).status).toBe(401);
    const runs = await server.deps.orm.em.fork().find(NudgeRun, { owner: userId });
    expect(runs.map((r) => r.status)).toEqual(['skipped']);
    expect(await server.deps.orm.em.fork().count(MicrosoftConnection, { user: userId })).toBe(0);
    // A goal's weekly check-in (and its call) is never claimed for them.
    await server.deps.orm.em.fork().getConnection().execute(`update "goal" set "next_reminder_at" = now() - interval '1 hour' where "owner_id" = ?`, [userId]);
    expect((await claimDueReminders(server.deps.orm, new Date())).filter((r) => r.ownerId === userId)).toEqual([]);
    // And no new sign-in: Microsoft answers with the reason.
    const again = await signInWithMicrosoft('sam.other-upn@contoso.example', objectId);
    expect(again.location).toBe('/login?microsoft_error=deprovisioned');
    expect(microsoftSignInTexts.errors.deprovisioned).toBeTruthy();
    const members = (await boss.get('/api/admin/members')).json.members as Array<{ id: number; state: string; provisioned: boolean }>;
    expect(members.find((m) => m.id === userId)).toMatchObject({ state: 'deprovisioned', provisioned: true });
  });

  it('finds the provisioned account by its email on a first sign-in', async () => {
    const created = await scim('POST', '/Users', { userName: 'kim@contoso.example', externalId: 'kim-mail-nickname', emails: [{ value: 'Kim.Park@contoso.example', primary: true }], active: true });
    const { http, location } = await signInWithMicrosoft('kim.park@contoso.example');
    expect(location).toBe('/app');
    expect((await http.get('/api/auth/session')).json.user.id).toBe(Number(created.json.id));
    const row = await server.deps.orm.em.fork().findOneOrFail(User, Number(created.json.id));
    expect(row.entraTenantId).toBe(tenant);
  });

  it('refuses a password sign-in of a deprovisioned account, and its verified phone names nobody', async () => {
    const { user } = await signUp(server.url, 'goes_away', 'Goes Away');
    const em = server.deps.orm.em.fork();
    const phone = '+15550009999';
    await em.upsert(UserSettings, { user: user.id, phone, phoneVerifiedAt: new Date() } as never);
    expect(await userIdOfVerifiedPhone(server.deps.orm.em.fork(), phone)).toBe(user.id);
    await em.nativeUpdate(User, { id: user.id }, { active: false });
    const login = await new HttpClient(server.url).post('/api/auth/login', { username: 'goes_away', password: 'secret123' });
    expect(login.status).toBe(403);
    expect(await userIdOfVerifiedPhone(server.deps.orm.em.fork(), phone)).toBeNull();
  });
});

describe('seats for new accounts', () => {
  it('gives the last seat to one of several registrations racing for it', async () => {
    const used = (await boss.get('/api/admin/organisation')).json.seatsInUse as number;
    expect((await boss.request('PATCH', '/api/admin/organisation', { seats: used + 1 })).status).toBe(200);
    try {
      const racing = await Promise.all(
        [1, 2, 3, 4].map((n) => new HttpClient(server.url).post('/api/auth/register', { username: `racer_${n}`, password: 'secret123', fullName: `Racer ${n}` })),
      );
      expect(racing.map((res) => res.status).sort()).toEqual([201, 403, 403, 403]);
      expect(racing.filter((res) => res.status === 403).every((res) => res.json.message === organisationTexts.noSeat)).toBe(true);
      expect((await boss.get('/api/admin/organisation')).json.seatsInUse).toBe(used + 1);
    } finally {
      expect((await boss.request('PATCH', '/api/admin/organisation', { seats: null })).status).toBe(200);
    }
  });

  it('refuses a registration and a first Sign in with Microsoft when every seat is taken', async () => {
    const used = (await boss.get('/api/admin/organisation')).json.seatsInUse as number;
    expect((await boss.request('PATCH', '/api/admin/organisation', { seats: used })).status).toBe(200);
    try {
      const registered = await new HttpClient(server.url).post('/api/auth/register', { username: 'one_too_many', password: 'secret123', fullName: 'One Too Many' });
      expect(registered.status).toBe(403);
      expect(registered.json.message).toBe(organisationTexts.noSeat);
      entra.setAccount({ username: 'newcomer@contoso.example', tenantId: tenant });
      const http = new HttpClient(server.url);
      const start = await http.get('/api/auth/microsoft/sign-in');
      const authorize = await fetch(start.headers.get('location')!, { redirect: 'manual' });
      const back = new URL(authorize.headers.get('location')!);
      expect((await http.get(back.pathname + back.search)).headers.get('location')).toBe('/login?microsoft_error=noSeat');
      // Someone who has an account still signs in.
      expect((await new HttpClient(server.url).post('/api/auth/login', { username: 'plain_member', password: 'secret123' })).status).toBe(200);
    } finally {
      expect((await boss.request('PATCH', '/api/admin/organisation', { seats: null })).status).toBe(200);
    }
  });
});

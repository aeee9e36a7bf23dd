import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ormOptions } from '../../src/server/db/orm.js';
import { AdminAuditEvent } from '../../src/server/db/entities/AdminAuditEvent.js';
import { User } from '../../src/server/db/entities/User.js';
import { runAudited } from '../../src/server/features/organisations/audit.js';
import { appRouter } from '../../src/server/trpc/root.js';
import { organisationTexts } from '../../src/shared/texts/index.js';
import { startFakeEntra, type FakeEntra } from '../fakes/entra/index.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The admin console's audit log, CSV invites and member states, through the real server: every
// admin mutation writes its audit row (a mutation added later without one fails here), a failed
// one writes none, the log pages newest first and outlives the admin; a CSV invites the people of
// its valid lines within the seats and answers the others as skipped, a CSV that cannot be read is
// a 400 with nothing written; the invited sign in with Microsoft into their account; members are
// invited, active, inactive (30 days unseen) or deprovisioned.

vi.setConfig({ testTimeout: 60_000 });

const texts = organisationTexts.invite;
const tenant = '11111111-2222-3333-4444-555555555555';

let graph: FakeGraph;
let entra: FakeEntra;
let server: TestServer;
let boss: HttpClient;
let bossId: number;
let member: HttpClient;
let memberId: number;
let memberKey: string;
let bossKey: string;

beforeAll(async () => {
  graph = await startFakeGraph();
  entra = await startFakeEntra({ clientId: 'test-client', onAccessToken: (token, account) => graph.grant(token, graph.addMailbox({ tokens: [], mail: account, displayName: account })) });
  server = await startTestServer({
    DEMO_MODE: 'false',
    ORG_ADMINS: 'boss',
    MICROSOFT_CLIENT_ID: 'test-client',
    MICROSOFT_AUTHORITY_HOST: entra.url,
    MICROSOFT_TENANT_ID: 'organizations',
    MICROSOFT_GRAPH_BASE_URL: graph.url,
  });
  const signedBoss = await signUp(server.url, 'boss', 'The Boss');
  boss = signedBoss.http;
  bossId = signedBoss.user.id;
  const signedUp = await signUp(server.url, 'plain_member', 'Plain Member');
  member = signedUp.http;
  memberId = signedUp.user.id;
  bossKey = (await boss.post('/api/api-keys', { name: 'boss key' })).json.key;
  memberKey = (await member.post('/api/api-keys', { name: 'member key' })).json.key;
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await entra?.close();
  await graph?.close();
});

type Procedure = { _def: { type: 'query' | 'mutation' | 'subscription'; meta?: { audit?: string } } };
const adminMutations = Object.entries(appRouter._def.procedures as unknown as Record<string, Procedure>)
  .filter(([path, procedure]) => path.startsWith('admin.') && procedure._def.type === 'mutation')
  .map(([path, procedure]) => ({ path, audit: procedure._def.meta?.audit }));

const em = () => server.deps.orm.em.fork();
const auditRows = () => em().find(AdminAuditEvent, {}, { orderBy: { id: 'desc' } });
const withKey = (key: string) => new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${key}` } });
const invite = (http: HttpClient, csv: unknown) => http.post('/api/admin/invites', { csv });
type Member = { id: number; username: string; fullName: string; email: string | null; state: string };
const members = async () => (await boss.get('/api/admin/members')).json.members as Member[];

describe('who may use the new admin paths', () => {
  it('answers 403 to a member and to any API key, 401 without a session', async () => {
    for (const http of [member, withKey(memberKey), withKey(bossKey)]) {
      expect((await http.get('/api/admin/audit')).status).toBe(403);
      expect((await invite(http, 'email\nx@contoso.example')).status).toBe(403);
    }
    expect((await member.get('/api/admin/audit')).json.message).toBe(organisationTexts.adminsOnly);
    expect((await new HttpClient(server.url).get('/api/admin/audit')).status).toBe(401);
    expect((await invite(new HttpClient(server.url), 'email\nx@contoso.example')).status).toBe(401);
    expect(await em().count(User, { email: 'x@contoso.example' })).toBe(0);
  });
});

describe('the audit log', () => {
  // How each admin mutation is called here. A mutation added later needs a line (and its
  // `.meta({ audit })`, or the adminProcedure refuses it): the test below fails until it has both.
  const inputs: Record<string, () => Promise<unknown>> = {
    'admin.updateOrganisation': async () => ({ name: 'Contoso', seats: 500 }),
    'admin.setMemberRole': async () => ({ userId: memberId, role: 'member' }),
    'admin.createScimToken': async () => undefined,
    'admin.revokeScimToken': async () => ({ id: (await boss.post('/api/admin/scim-tokens')).json.id }),
    'admin.inviteMembers': async () => ({ csv: 'email,name\naudit.invite@contoso.example,Audit Invite\n' }),
    'admin.createProgram': async () => {
      expect((await boss.post('/api/admin/invites', { csv: 'email,name,department\naudit.program@contoso.example,Audit Program,Audit Dept\n' })).status).toBe(200);
      return { name: 'Audit program', focus: 'Delegating', weeks: 4, department: 'Audit Dept' };
    },
    'admin.endProgram': async () => ({ id: (await boss.post('/api/admin/programs', { name: 'To end', focus: 'Delegating', weeks: 4, department: 'Audit Dept' })).json.id }),
  };

  it('records a row for every admin mutation: who (id and name), what, the target and the changed fields, never a token', async () => {
    expect(adminMutations.length).toBeGreaterThanOrEqual(5);
    for (const mutation of adminMutations) {
      expect(mutation.audit, `${mutation.path} declares no audit action (.meta({ audit }))`).toBeTruthy();
      expect(inputs[mutation.path], `${mutation.path} has no input in this test`).toBeTypeOf('function');
      const input = await inputs[mutation.path]!();
      const before = (await auditRows())[0]?.id ?? 0;
      const res = await boss.post(`/trpc/${mutation.path}`, input ?? {});
      expect(res.status, `${mutation.path}: ${res.text}`).toBe(200);
      const rows = (await auditRows()).filter((row) => row.id > before && row.action === mutation.audit);
      expect(rows.length, `${mutation.path} wrote no audit row`).toBeGreaterThanOrEqual(1);
      expect(rows[0]).toMatchObject({ actorKind: 'admin', actorUserId: bossId, actorName: 'The Boss', organisationId: 1 });
    }
    const log = (await boss.get('/api/admin/audit')).json.events as Array<{ action: string; target: string | null; changes: Record<string, unknown> | null; actorName: string }>;
    expect(log.find((e) => e.action === 'organisation.update')).toMatchObject({ changes: { name: 'Contoso', nameBefore: 'Organisation', seats: 500, seatsBefore: null } });
    expect(log.find((e) => e.action === 'member.role')).toMatchObject({ target: `#${memberId} Plain Member`, changes: { role: 'member', roleBefore: 'member' } });
    expect(log.find((e) => e.action === 'members.invite')).toMatchObject({ changes: { invited: 1, skipped: 0 } });
    const created = log.find((e) => e.action === 'scimToken.create')!;
    expect(created.target).toMatch(/^scim_.{6}$/);
    // No token in the log, in the answer or in the table.
    const token = (await boss.post('/api/admin/scim-tokens')).json.token as string;
    const dump = JSON.stringify(await em().getConnection().execute('select * from admin_audit_event')) + (await boss.get('/api/admin/audit')).text;
    expect(dump).not.toContain(token);
    expect(dump).toContain(token.slice(0, 11));
  });

  it('records nothing for a mutation that fails, and its changes roll back', async () => {
    const before = (await auditRows()).length;
    expect((await boss.delete('/api/admin/scim-tokens/999999')).status).toBe(404);
    expect((await boss.put('/api/admin/members/999999/role', { role: 'admin' })).status).toBe(404);
    expect((await boss.request('PATCH', '/api/admin/organisation', { seats: -1 })).status).toBe(400);
    expect((await invite(boss, 'name\nNo Email')).status).toBe(400);
    expect((await auditRows()).length).toBe(before);
  });

  it('refuses an admin mutation that declares no audit action, before it runs', async () => {
    let ran = false;
    await expect(runAudited(em(), { id: bossId, fullName: 'The Boss', organisationId: 1 }, 'admin.forgotten', undefined, async () => {
      ran = true;
      return { ok: true };
    })).rejects.toThrow(/declares no audit action/);
    expect(ran).toBe(false);
  });

  it('pages newest first with cursor and limit, and checks them', async () => {
    const all = (await boss.get('/api/admin/audit?limit=200')).json.events as Array<{ id: number }>;
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));
    const first = (await boss.get('/api/admin/audit?limit=2')).json;
    expect(first.events.map((e: { id: number }) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    expect(first.nextCursor).toBe(all[1]!.id);
    const second = (await boss.get(`/api/admin/audit?limit=2&cursor=${first.nextCursor}`)).json;
    expect(second.events.map((e: { id: number }) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));
    const bad = await boss.get('/api/admin/audit?limit=5000');
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe(organisationTexts.badLimit);
    expect((await boss.get('/api/admin/audit?cursor=abc')).status).toBe(400);
    // Over tRPC with no input: the first page.
    expect((await boss.get('/trpc/admin.audit')).json.result.data.events.length).toBeGreaterThan(0);
  });

  it('keeps an admin’s rows, with their name, when their account is deleted', async () => {
    const { http: deputy, user } = await signUp(server.url, 'deputy', 'Dana Deputy');
    expect((await boss.put(`/api/admin/members/${user.id}/role`, { role: 'admin' })).status).toBe(200);
    expect((await deputy.request('PATCH', '/api/admin/organisation', { retention: 'keep' })).status).toBe(200);
    expect((await deputy.post('/trpc/privacy.deleteAccount', { confirmation: 'DELETE' })).status).toBe(200);
    expect(await em().count(User, { id: user.id })).toBe(0);
    const rows = await em().find(AdminAuditEvent, { actorUserId: user.id });
    expect(rows.map((row) => [row.action, row.actorName])).toEqual([['organisation.update', 'Dana Deputy']]);
  });

  it("records provisioning's changes under its token's prefix", async () => {
    const token = (await boss.post('/api/admin/scim-tokens')).json.token as string;
    const scim = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}/scim/v2${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const created = await (await scim('POST', '/Users', { userName: 'prov.audit@contoso.example', displayName: 'Prov Audit', active: true })).json();
    expect((await scim('PATCH', `/Users/${created.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] })).status).toBe(200);
    expect((await scim('GET', '/Users')).status).toBe(200);
    const rows = await em().find(AdminAuditEvent, { actorKind: 'provisioning' }, { orderBy: { id: 'asc' } });
    expect(rows.map((row) => ({ action: row.action, actorName: row.actorName, target: row.target, changes: row.changes }))).toEqual([
      { action: 'scim.user.create', actorName: token.slice(0, 11), target: `#${created.id} prov.audit@contoso.example`, changes: { active: true } },
      { action: 'scim.user.update', actorName: token.slice(0, 11), target: `#${created.id} prov.audit@contoso.example`, changes: { active: false } },
    ]);
  });
});

describe('CSV invites', () => {
  it('invites each valid line, and skips an existing member, a bad email and a repeated line', async () => {
    const csv = [
      'Email,Name,Department,Manager,Ignored',
      'ana.lima@contoso.example,Ana Lima,Sales,boss@contoso.example,x',
      '"ben.ode@contoso.example","Ode, Ben",Engineering,,',
      'not-an-email,Someone,,,',
      'ANA.LIMA@contoso.example,Ana Again,,,',
      'audit.invite@contoso.example,Already Invited,,,',
      'plain_member,Plain,,,',
      '',
      'cleo@contoso.example',
    ].join('\r\n');
    const res = await invite(boss, csv);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      invited: 3,
      skipped: [
        { line: 4, email: 'not-an-email', reason: texts.badEmail },
        { line: 5, email: 'ANA.LIMA@contoso.example', reason: texts.duplicate },
        { line: 6, email: 'audit.invite@contoso.example', reason: texts.alreadyMember },
        { line: 7, email: 'plain_member', reason: texts.badEmail },
      ],
    });
    const list = await members();
    expect(list.find((m) => m.email === 'ana.lima@contoso.example')).toMatchObject({ fullName: 'Ana Lima', state: 'invited', username: 'ana.lima@contoso.example' });
    expect(list.find((m) => m.email === 'ben.ode@contoso.example')).toMatchObject({ fullName: 'Ode, Ben', state: 'invited' });
    expect(list.find((m) => m.email === 'cleo@contoso.example')).toMatchObject({ fullName: 'cleo', state: 'invited' });
    const ana = await em().findOneOrFail(User, { email: 'ana.lima@contoso.example' });
    expect(ana.passwordHash).toBeNull();
    expect(ana.scimProfile).toMatchObject({ department: 'Sales', manager: 'boss@contoso.example' });
    // The same file again: everyone is a member already.
    const again = await invite(boss, csv);
    expect(again.json.invited).toBe(0);
    expect(again.json.skipped.filter((s: { reason: string }) => s.reason === texts.alreadyMember).length).toBe(4);
  });

  it('reads a semicolon-separated file with a byte order mark', async () => {
    const res = await invite(boss, '\uFEFFemail;name\ndiego@contoso.example;Diego\n');
    expect(res.json).toEqual({ invited: 1, skipped: [] });
  });

  it('invites no more than the free seats, under the same rule as provisioning', async () => {
    const used = (await boss.get('/api/admin/organisation')).json.seatsInUse as number;
    expect((await boss.request('PATCH', '/api/admin/organisation', { seats: used + 1 })).status).toBe(200);
    try {
      const res = await invite(boss, 'email\nseat.one@contoso.example\nseat.two@contoso.example\nseat.three@contoso.example');
      expect(res.json).toEqual({
        invited: 1,
        skipped: [
          { line: 3, email: 'seat.two@contoso.example', reason: texts.noSeat },
          { line: 4, email: 'seat.three@contoso.example', reason: texts.noSeat },
        ],
      });
      expect((await boss.get('/api/admin/organisation')).json.seatsInUse).toBe(used + 1);
      expect((await invite(boss, 'email\nseat.four@contoso.example')).json.skipped).toEqual([{ line: 2, email: 'seat.four@contoso.example', reason: texts.noSeat }]);
    } finally {
      expect((await boss.request('PATCH', '/api/admin/organisation', { seats: null })).status).toBe(200);
    }
  });

  it('answers 400 with what is wrong for a file it cannot read, and writes nothing', async () => {
    const users = await em().count(User, {});
    const cases: Array<[unknown, string | RegExp]> = [
      ['email,name\nfine@contoso.example,Fine\n"broken@contoso.example,Unclosed\n', /^The CSV file could not be read: /],
      ['name,department\nNo Email,Sales', texts.noEmailColumn],
      ['email,name\n', texts.noRows],
      ['', texts.csvRequired],
      [42, texts.csvRequired],
      [`email\n${Array.from({ length: 1001 }, (_, i) => `bulk${i}@contoso.example`).join('\n')}`, texts.tooManyRows(1000)],
    ];
    for (const [csv, message] of cases) {
      const res = await invite(boss, csv);
      expect(res.status, String(csv).slice(0, 40)).toBe(400);
      if (typeof message === 'string') expect(res.json.message).toBe(message);
      else expect(res.json.message).toMatch(message);
    }
    expect((await boss.post('/api/admin/invites', {})).status).toBe(400);
    expect(await em().count(User, {})).toBe(users);
  });

  it('takes a file of 1,000 people (larger than the usual 100 kB body)', async () => {
    const csv = `email,name,department,manager\n${Array.from({ length: 1000 }, (_, i) => `a.rather.long.address.for.person.number.${i}@contoso-subsidiary.example,Person Number ${i} With A Long Name,Department of Long Names ${i},manager.${i}@contoso-subsidiary.example`).join('\n')}`;
    expect(csv.length).toBeGreaterThan(100_000);
    const res = await invite(boss, csv);
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    expect(res.json.invited).toBe(1000);
  });

  it('signs an invited person in with Microsoft into their account, which is then active', async () => {
    expect((await invite(boss, 'email,name\nfay.invited@contoso.example,Fay Invited')).json.invited).toBe(1);
    const invitedId = (await members()).find((m) => m.email === 'fay.invited@contoso.example')!.id;
    entra.setAccount({ username: 'Fay.Invited@contoso.example', tenantId: tenant });
    const http = new HttpClient(server.url);
    const start = await http.get('/api/auth/microsoft/sign-in');
    const authorize = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    expect((await http.get(back.pathname + back.search)).headers.get('location')).toBe('/app');
    expect((await http.get('/api/auth/session')).json.user).toMatchObject({ id: invitedId, fullName: 'Fay Invited' });
    await expect.poll(async () => (await members()).find((m) => m.id === invitedId)?.state).toBe('active');
  });
});

describe('member states', () => {
  const setSeen = (id: number, daysAgo: number | null) => em().nativeUpdate(User, { id }, { lastSeenAt: daysAgo === null ? null : new Date(Date.now() - daysAgo * 86_400_000) });
  const stateOf = async (id: number) => (await members()).find((m) => m.id === id)?.state;

  it('is active after a sign-in or a request in the last 30 days, inactive after 30 days unseen, deprovisioned when removed', async () => {
    const { user } = await signUp(server.url, 'sleepy', 'Sleepy Member');
    await expect.poll(async () => (await em().findOneOrFail(User, user.id)).lastSeenAt).not.toBeNull();
    expect(await stateOf(user.id)).toBe('active');
    await setSeen(user.id, 29);
    expect(await stateOf(user.id)).toBe('active');
    await setSeen(user.id, 31);
    expect(await stateOf(user.id)).toBe('inactive');
    // A sign-in makes them active again (the account keeps it when sessions end).
    expect((await new HttpClient(server.url).post('/api/auth/login', { username: 'sleepy', password: 'secret123' })).status).toBe(200);
    await expect.poll(() => stateOf(user.id)).toBe('active');
    // So does a request with one of their API keys.
    const key = (await member.post('/api/api-keys', { name: 'fresh key' })).json.key as string;
    await setSeen(memberId, 45);
    expect(await stateOf(memberId)).toBe('inactive');
    expect((await withKey(key).get('/api/chats')).status).toBe(200);
    expect(await stateOf(memberId)).toBe('active');
    await em().nativeUpdate(User, { id: user.id }, { active: false, deprovisionedAt: new Date() });
    expect(await stateOf(user.id)).toBe('deprovisioned');
  });

  it('is invited for an account made by an invite or by provisioning that never signed in, and inactive when that was 30 days ago… only once they signed in', async () => {
    const invitedId = (await members()).find((m) => m.email === 'ben.ode@contoso.example')!.id;
    await em().nativeUpdate(User, { id: invitedId }, { createdAt: new Date(Date.now() - 60 * 86_400_000) });
    expect(await stateOf(invitedId)).toBe('invited');
    await setSeen(invitedId, 40);
    expect(await stateOf(invitedId)).toBe('inactive');
    const fields = Object.keys((await members())[0]!).sort();
    expect(fields).toEqual(['adminByOperator', 'createdAt', 'deprovisionedAt', 'email', 'fullName', 'id', 'provisioned', 'role', 'state', 'username']);
  });
});

describe('the admin audit migration', () => {
  it('sets when the accounts a database holds were last seen: their latest session, else when made; a provisioned account never signed in stays unseen', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-audit-migration-'));
    const orm = await MikroORM.init(ormOptions({ kind: 'pglite', directory: path.join(dir, 'pglite') }));
    const sql = (text: string) => orm.em.fork().getConnection().execute(text);
    try {
      await orm.migrator.up({ to: 'Migration20261203070000_organisations' });
      await sql(`insert into "organisation" ("id", "name", "created_at") values (1, 'Organisation', now()) on conflict do nothing`);
      await sql(`insert into "app_user" ("username", "username_key", "full_name", "password_hash", "is_demo", "is_guest", "created_at") values ('with_session', 'with_session', 'With Session', 'x', false, false, '2026-01-01'), ('no_session', 'no_session', 'No Session', 'x', false, false, '2026-02-01')`);
      await sql(`insert into "app_user" ("username", "username_key", "full_name", "is_demo", "is_guest", "created_at", "scim_user_name", "scim_user_name_key") values ('never', 'never', 'Never Signed In', false, false, '2026-03-01', 'never@contoso.example', 'never@contoso.example')`);
      await sql(`insert into "auth_session" ("id", "user_id", "created_at", "last_seen_at", "expires_at") select 'a', "id", '2026-04-01', '2026-04-02', '2027-01-01' from "app_user" where "username" = 'with_session'`);
      await orm.migrator.up();
      const seen = await sql(`select "username", "last_seen_at", "invited_at" from "app_user" order by "id"`);
      expect(seen.map((row: { username: string; last_seen_at: Date | null; invited_at: Date | null }) => [row.username, row.last_seen_at && new Date(row.last_seen_at).toISOString(), row.invited_at])).toEqual([
        ['with_session', '2026-04-02T00:00:00.000Z', null],
        ['no_session', '2026-02-01T00:00:00.000Z', null],
        ['never', null, null],
      ]);
      expect(await sql(`select count(*)::int as "n" from "admin_audit_event"`)).toEqual([{ n: 0 }]);
      await orm.migrator.down({ to: 'Migration20261203070000_organisations' });
      await orm.migrator.up();
    } finally {
      await orm.close(true);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

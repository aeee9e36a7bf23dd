import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadCoachFacts } from '../../src/server/coachFacts.js';
import { Chat } from '../../src/server/db/entities/Chat.js';
import { NudgeRun } from '../../src/server/db/entities/Nudge.js';
import { recordCoachingActivity } from '../../src/server/features/coach/coachingActivity.js';
import { assembleCoachContext } from '../../src/server/features/coach/coachContext.js';
import { unsubscribeToken } from '../../src/server/features/nudges/unsubscribeToken.js';
import { renderCoachContext } from '../../src/server/providers/ai/renderContext.js';
import { programTexts } from '../../src/shared/texts/index.js';
import { signUp } from '../helpers/clients.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// Coaching programs through the real server: an admin starts one for a provisioned group, the
// coach of its members knows its focus while it runs, its nudges reach each member once a program
// week (on the queue's clock), its progress is counted over at least 5 people, and ending it stops
// both. A member turns its nudges off from the email's link.

vi.setConfig({ testTimeout: 60_000 });

let database: FreshDatabase;
let server: TestServer;
let boss: HttpClient;
let token: string;
const queueClock = new TestClock();
// A Wednesday at noon UTC: no member's quiet hours (20:00 to 07:00 in UTC, the default zone).
const wednesday = new Date('2026-12-02T12:00:00Z');

beforeAll(async () => {
  database = await freshDatabase();
  await queueClock.setTime(wednesday);
  server = await startTestServer({ DEMO_MODE: 'false', ORG_ADMINS: 'boss' }, database, { queueClock });
  ({ http: boss } = await signUp(server.url, 'boss', 'The Boss'));
  token = (await boss.post('/api/admin/scim-tokens')).json.token;
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await database?.dispose();
});

const em = () => server.deps.orm.em.fork();
async function scim(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/scim/v2${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}
async function provision(count: number, prefix: string): Promise<number[]> {
  const ids: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const created = await scim('POST', '/Users', { userName: `${prefix}${index}@contoso.example`, displayName: `${prefix} ${index}`, active: true });
    expect(created.status).toBe(201);
    ids.push(Number(created.json.id));
  }
  return ids;
}

describe('a program for a provisioned group', () => {
  let managers: number[];
  let groupId: string;
  let programId: number;

  beforeAll(async () => {
    managers = await provision(6, 'manager');
    await provision(6, 'engineer');
    const group = await scim('POST', '/Groups', { displayName: 'First-time managers', members: managers.map((id) => ({ value: String(id) })) });
    expect(group.status).toBe(201);
    groupId = group.json.id;
  });

  it('refuses a program without a name, a target, with both targets or a group not of the organisation', async () => {
    const base = { name: 'First-time managers, 8 weeks', focus: 'Delegating well and running one-to-ones', weeks: 8 };
    for (const [body, message] of [
      [{ ...base, name: '' }, programTexts.nameRequired],
      [base, programTexts.oneTarget],
      [{ ...base, groupId, department: 'Sales' }, programTexts.oneTarget],
      [{ ...base, groupId, weeks: 60 }, programTexts.weeksRange],
      [{ ...base, groupId, cadence: 'daily' }, programTexts.cadenceInvalid],
    ] as const) {
      const res = await boss.post('/api/admin/programs', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.text).toContain(message);
    }
    const unknown = await boss.post('/api/admin/programs', { ...base, groupId: '00000000-0000-0000-0000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe(programTexts.groupNotFound);
    expect((await boss.get('/api/admin/programs')).json.programs).toEqual([]);
  });

  it('starts it: the coach of each member knows its focus, fenced as their organisation wrote it; nobody else’s coach does', async () => {
    const started = await boss.post('/api/admin/programs', { name: 'First-time managers, 8 weeks', focus: 'Delegating well and running one-to-ones', groupId, weeks: 8, cadence: 'weekly', startsOn: '2026-12-01' });
    expect(started.status, started.text).toBe(201);
    programId = started.json.id;
    const facts = await loadCoachFacts(server.deps, em(), managers[0]!);
    expect(facts.program).toEqual({ name: 'First-time managers, 8 weeks', focus: 'Delegating well and running one-to-ones', week: 1, weeks: 8 });
    const context = await assembleCoachContext({ user: { fullName: 'Manager', jobTitle: null, company: null }, history: [], latestUserMessage: 'Hello', facts });
    const prompt = renderCoachContext(context).map((turn) => turn.content).join('\n');
    expect(prompt).toContain('week 1 of 8');
    expect(prompt).toMatch(/"""\n?First-time managers, 8 weeks\nDelegating well and running one-to-ones\n?"""/);
    const engineer = (await em().getConnection().execute(`select "id" from "app_user" where "scim_user_name" = 'engineer0@contoso.example'`))[0].id as number;
    expect((await loadCoachFacts(server.deps, em(), engineer)).program).toBeNull();
  });

  it('nudges each member once this program week, as a scheduled run with its title and focus', async () => {
    await server.deps.nudges.planBriefs();
    await server.deps.nudges.planBriefs();
    await server.deps.nudges.tick();
    const runs = await em().find(NudgeRun, { kind: 'program' }, { orderBy: { id: 'asc' } });
    expect(runs.map((run) => run.owner.id).sort()).toEqual([...managers].sort());
    expect(runs.every((run) => run.eventId === `program:${programId}:1` && run.trigger === 'scheduled')).toBe(true);
    expect(runs.map((run) => run.status)).toEqual(managers.map(() => 'sent'));
    const first = runs[0]!;
    const message = (await em().getConnection().execute(`select "content" from "message" where "chat_id" = ?`, [first.chat!.id]))[0].content as string;
    expect(message).toBe(programTexts.nudgeBody('First-time managers, 8 weeks', 1, 8, 'Delegating well and running one-to-ones'));
  });

  it("counts its progress over at least 5 people: 4 active members are 'fewer than 5', 5 are a number", async () => {
    const coach = async (userId: number) => {
      const fork = em();
      const chat = fork.create(Chat, { owner: userId, title: 'Delegation' });
      await fork.flush();
      await recordCoachingActivity(fork, { userId, chatId: chat.id, path: 'chat', labels: { frameworks: [], themes: ['leadership'] }, at: wednesday });
    };
    for (const id of managers.slice(0, 4)) await coach(id);
    const progress = async () => ((await boss.get('/api/admin/programs')).json.programs as Array<{ id: number; progress: Array<{ week: number; active: unknown; sessions: unknown }> | null; members: number; state: string; week: number }>).find((p) => p.id === programId)!;
    const four = await progress();
    expect(four).toMatchObject({ members: 6, state: 'running', week: 1 });
    expect(four.progress).toEqual([expect.objectContaining({ week: 1, active: { hidden: 'small' } })]);
    await coach(managers[4]!);
    expect((await progress()).progress![0]).toMatchObject({ week: 1, active: { value: 5 }, sessions: { value: 5 } });
  });

  it('turns a member’s program nudges off from the email’s link', async () => {
    const link = unsubscribeToken(server.deps.sessionPassword, managers[5]!, 'program');
    const res = await fetch(`${server.url}/api/nudges/unsubscribe?token=${encodeURIComponent(link)}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(res.status).toBeLessThan(400);
    expect((await em().getConnection().execute(`select "nudges" from "program_setting" where "owner_id" = ?`, [managers[5]]))[0]).toEqual({ nudges: false });
  });

  it('ends it: the coach no longer brings its focus in, and a waiting nudge is skipped', async () => {
    const fork = em();
    fork.create(NudgeRun, { owner: managers[0]!, kind: 'program', status: 'queued', trigger: 'scheduled', channels: ['app'], dueAt: new Date(wednesday.getTime() + 86_400_000), attempts: 0, eventId: `program:${programId}:2`, createdAt: wednesday, updatedAt: wednesday });
    await fork.flush();
    const ended = await boss.post(`/api/admin/programs/${programId}/end`);
    expect(ended.status).toBe(200);
    expect(ended.json.state).toBe('ended');
    expect((await boss.post(`/api/admin/programs/${programId}/end`)).status).toBe(409);
    expect((await loadCoachFacts(server.deps, em(), managers[0]!)).program).toBeNull();
    expect((await em().findOneOrFail(NudgeRun, { eventId: `program:${programId}:2` })).status).toBe('skipped');
  });

  it("shows no progress of two programs whose members differ by fewer than 5 (the difference would be theirs)", async () => {
    const fewer = await scim('POST', '/Groups', { displayName: 'First-time managers but one', members: managers.slice(1).map((id) => ({ value: String(id) })) });
    expect(fewer.status).toBe(201);
    const started = await boss.post('/api/admin/programs', { name: 'Managers but one', focus: 'Delegating', groupId: fewer.json.id, weeks: 4, cadence: 'off', startsOn: '2026-12-01' });
    expect(started.status, started.text).toBe(201);
    expect(started.json.progress).toBeNull();
    const programs = (await boss.get('/api/admin/programs')).json.programs as Array<{ id: number; progress: unknown; members: number }>;
    expect(programs.find((p) => p.id === programId)).toMatchObject({ members: 6, progress: null });
    expect(programs.find((p) => p.id === started.json.id)).toMatchObject({ members: 5, progress: null });
    // Once the two differ by the floor or more, each is shown again.
    await scim('PATCH', `/Groups/${fewer.json.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Add', path: 'members', value: (await provision(5, 'newmanager')).map((id) => ({ value: String(id) })) }] });
    const apart = (await boss.get('/api/admin/programs')).json.programs as Array<{ id: number; progress: unknown }>;
    expect(apart.find((p) => p.id === programId)!.progress).not.toBeNull();
  });
});

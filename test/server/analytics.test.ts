import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Chat } from '../../src/server/db/entities/Chat.js';
import { Goal } from '../../src/server/db/entities/Goal.js';
import { recordCoachingActivity, weekOf } from '../../src/server/features/coach/coachingActivity.js';
import { lastWeeks } from '../../src/server/features/organisations/analytics.js';
import { loadConfig } from '../../src/server/config.js';
import { topicLabelsOf } from '../../src/server/providers/ai/topicLabels.js';
import type { AnalyticsAnswer, Figure } from '../../src/shared/schemas/analytics.js';
import { organisationTexts } from '../../src/shared/texts/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The organisation's analytics through the real server: the coach counts each member's turns
// (sessions by kind, its own topic labels, never words), every figure an admin reads is over at
// least ORG_ANALYTICS_MIN_GROUP people, and a breakdown that would let a small group be worked out
// by subtraction is refused, or its figures withheld.

vi.setConfig({ testTimeout: 60_000 });

let server: TestServer;
let boss: HttpClient;
let token: string;
const week = weekOf(new Date());

beforeAll(async () => {
  server = await startTestServer({ DEMO_MODE: 'false', ORG_ADMINS: 'boss' });
  ({ http: boss } = await signUp(server.url, 'boss', 'The Boss'));
  token = (await boss.post('/api/admin/scim-tokens')).json.token;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const em = () => server.deps.orm.em.fork();
const analytics = async (query = '') => {
  const res = await boss.get(`/api/admin/analytics${query}`);
  return { status: res.status, json: res.json as AnalyticsAnswer & { message?: string }, text: res.text };
};
const thisWeek = (answer: AnalyticsAnswer) => answer.weeks.find((w) => w.week === week)!;

/** People provisioned as Entra does, with a department and a manager. */
async function provision(count: number, department: string, manager?: string): Promise<number[]> {
  const ids: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const userName = `${department.toLowerCase()}-${Date.now().toString(36)}-${index}@contoso.example`;
    const res = await fetch(`${server.url}/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        userName,
        displayName: `${department} ${index}`,
        active: true,
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department, ...(manager ? { manager: { value: manager } } : {}) },
      }),
    });
    expect(res.status).toBe(201);
    ids.push(Number(((await res.json()) as { id: string }).id));
  }
  return ids;
}

/** A session of theirs this week, counted by the coach's own recorder (as a turn in a chat of theirs is). */
async function coach(userIds: number[], words = 'How do I give feedback to my team?', path: 'chat' | 'voice' | 'phone' = 'chat') {
  for (const userId of userIds) {
    const fork = em();
    const chat = fork.create(Chat, { owner: userId, title: 'A session' });
    await fork.flush();
    await recordCoachingActivity(fork, { userId, chatId: chat.id, path, labels: topicLabelsOf(words) });
  }
}

describe('what the coach counts', () => {
  it("counts a member's chat once a week with the coach's labels, never their words, and nothing of a sensitive turn's themes", async () => {
    const { http, user } = await signUp(server.url, 'counted', 'Counted Member');
    const chat = (await http.post('/api/chats', { title: 'Feedback' })).json;
    expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'I need to give feedback to a colleague about missed deadlines' })).status).toBe(201);
    const row = await eventually(async () => {
      const [found] = await em().getConnection().execute(`select * from "coaching_activity" where "user_id" = ?`, [user.id]);
      return found;
    });
    expect(row).toMatchObject({ chat_sessions: 1, voice_sessions: 0 });
    expect(JSON.stringify(row)).not.toMatch(/feedback|colleague|deadline/i);
    const themes = row.themes as number;
    expect(themes).not.toBe(0);

    // The same chat again this week: the same session.
    await eventually(async () => {
      const messages = (await http.get(`/api/chats/${chat.id}/messages`)).json as Array<{ role: string; status: string }>;
      return messages.some((m) => m.role === 'assistant' && m.status !== 'streaming') || undefined;
    });
    expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'My doctor says the stress is making me ill, how do I prioritise?' })).status).toBe(201);
    await eventually(async () => {
      const messages = (await http.get(`/api/chats/${chat.id}/messages`)).json as Array<{ role: string; status: string }>;
      return messages.filter((m) => m.role === 'assistant' && m.status !== 'streaming').length >= 2 || undefined;
    });
    const [again] = await em().getConnection().execute(`select * from "coaching_activity" where "user_id" = ?`, [user.id]);
    expect(again).toMatchObject({ chat_sessions: 1, themes });
  });

  it('labels by fixed lists: a framework and work themes, no theme for a sensitive turn or one the safety line answered', () => {
    expect(topicLabelsOf('Help me write OKRs for my team this quarter')).toEqual({ frameworks: ['okr'], themes: ['goals', 'leadership'] });
    expect(topicLabelsOf('I keep missing deadlines because of my workload').themes).toEqual(['priorities']);
    expect(topicLabelsOf('My wife is ill and I cannot focus on my goals').themes).toEqual([]);
    expect(topicLabelsOf('How do I prepare my promotion case?', { answeredBySafety: true }).themes).toEqual([]);
  });

  it('counts nobody for a turn in a chat that is not theirs', async () => {
    const [a, b] = await provision(2, 'Lone');
    const fork = em();
    const chat = fork.create(Chat, { owner: a!, title: 'Theirs' });
    await fork.flush();
    await recordCoachingActivity(fork, { userId: b!, chatId: chat.id, path: 'chat', labels: { frameworks: [], themes: [] } });
    expect(await em().getConnection().execute(`select 1 from "coaching_activity" where "user_id" = ?`, [b])).toEqual([]);
  });
});

describe('the privacy floor', () => {
  it('refuses a floor under 3 at start', () => {
    expect(() => loadConfig({ ORG_ANALYTICS_MIN_GROUP: '2' })).toThrow(/ORG_ANALYTICS_MIN_GROUP.*at least 3/s);
    expect(loadConfig({}).organisation.analyticsMinGroup).toBe(5);
  });

  it("shows a week's figure only over 5 people or more, and the frameworks and themes the same way", async () => {
    const before = thisWeek((await analytics()).json);
    const people = await provision(5, 'Floor');
    await coach(people.slice(0, 4), 'Help me set SMART goals for my career');
    const four = await analytics();
    expect(four.status).toBe(200);
    expect(four.json.minGroup).toBe(5);
    expect(four.json.weeks).toHaveLength(52);
    expect(four.json.weeks.at(-1)!.week).toBe(week);
    const counted = thisWeek(four.json);
    // Fewer than 5 people coached this week (with the first test's member): hidden, not a number.
    expect(before.active).toEqual({ hidden: 'small' });
    expect(counted.active).toEqual({ value: 5 } satisfies Figure);
    expect(counted.sessions.voice).toEqual({ hidden: 'small' });
    expect(four.json.frameworks.find((f) => f.framework === 'smart')!.members).toEqual({ hidden: 'small' });
    await coach(people.slice(4), 'Help me set SMART goals for my career');
    const five = await analytics();
    expect(five.json.frameworks.find((f) => f.framework === 'smart')!.members).toEqual({ value: 5 });
    expect(five.json.themes.find((t) => t.theme === 'career')!.members).toEqual({ value: 5 });
    expect(five.json.themes.find((t) => t.theme === 'leadership')!.members).toEqual({ hidden: 'small' });
    expect(five.json.weeks.slice(0, -1).every((w) => 'hidden' in w.active)).toBe(true);
  });

  it('counts goals set and completed by week over the members who set or completed them', async () => {
    const people = await provision(5, 'Goals');
    const fork = em();
    for (const [index, owner] of people.entries()) {
      fork.create(Goal, { owner, framework: 'OKR', title: `Private goal ${index}`, dueDate: '2027-03-31', ...(index < 3 ? { doneAt: new Date() } : {}) });
    }
    await fork.flush();
    const answer = await analytics();
    expect(thisWeek(answer.json).goalsSet).toEqual({ value: 5 });
    expect(thisWeek(answer.json).goalsCompleted).toEqual({ hidden: 'small' });
    expect(answer.json.frameworks.find((f) => f.framework === 'okr')!.members).toEqual({ value: 5 });
    expect(answer.text).not.toContain('Private goal');
  });
});

describe('breakdowns that could single someone out', () => {
  it('refuses a breakdown by department while a department of fewer than 5 would be the difference, and gives it once the small ones make a group of 5 together', async () => {
    // Every earlier member has a department of at least 5, but for the first test's two (no department) and 'Lone' (2).
    const refused = await analytics('?by=department');
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe(organisationTexts.analytics.refused('department', 5));
    await provision(2, 'Legal');
    const answered = await analytics('?by=department');
    expect(answered.status, answered.text).toBe(200);
    const groups = answered.json.groups!;
    expect(groups.by).toBe('department');
    expect(groups.groups.map((g) => [g.name, g.kind])).toEqual([
      ['Floor', 'group'],
      ['Goals', 'group'],
      [null, 'other'],
    ]);
  });

  it("withholds a group's figure that would let a hidden group's be worked out from the organisation's", async () => {
    const answer = (await analytics('?by=department')).json;
    const [floor, goals, other] = answer.groups!.groups.map((g) => g.weeks.find((w) => w.week === week)!);
    // Active this week: Floor 5, Goals 0 (small), Other 1 (the first test's member; small).
    // The organisation's 6 is shown, so the hidden ones (1 person) would be 6 - 5: Floor's is withheld.
    expect(thisWeek(answer).active).toEqual({ value: 6 });
    expect(goals!.active).toEqual({ hidden: 'small' });
    expect(other!.active).toEqual({ hidden: 'small' });
    expect(floor!.active).toEqual({ hidden: 'withheld' });
    // Goals set: Goals 5 shown, the others hidden and 0 people together: the organisation's 5 would give them away.
    expect(thisWeek(answer).goalsSet).toEqual({ value: 5 });
    expect(goals!.goalsSet).toEqual({ hidden: 'withheld' });
  });

  it("keeps a breakdown's ended weeks for the members they were counted over, and counts a group's again when its members change", async () => {
    const lastWeek = lastWeeks(new Date(), 2)[0]!;
    const inDepartment = async (department: string): Promise<number[]> =>
      (await em().getConnection().execute(`select "id" from "app_user" where "scim_profile"->>'department' = ? order by "id"`, [department])).map((row: { id: number }) => row.id);
    const coachedLastWeek = async (ids: number[]) => {
      for (const id of ids) {
        await em().getConnection().execute(`insert into "coaching_activity" ("user_id", "organisation_id", "week", "chat_sessions") select "id", "organisation_id", ?::date, 1 from "app_user" where "id" = ?`, [lastWeek, id]);
      }
    };
    const lastWeekOf = (answer: AnalyticsAnswer, name: string | null) => answer.groups!.groups.find((g) => g.name === name)!.weeks.find((w) => w.week === lastWeek)!.active;
    const [floor, goals] = [await inDepartment('Floor'), await inDepartment('Goals')];
    expect([floor.length, goals.length]).toEqual([5, 5]);
    // A department new to the breakdown: its weeks are counted (nobody coached) and kept.
    const steady = await provision(5, 'Steady');
    expect(lastWeekOf((await analytics('?by=department')).json, 'Steady')).toEqual({ hidden: 'small' });

    // Last week was counted by the answers above, over these same members: it is kept, so what is
    // written into it now changes nothing.
    await coachedLastWeek([...floor, ...goals, ...steady]);
    const kept = (await analytics('?by=department')).json;
    expect(lastWeekOf(kept, 'Floor')).toEqual({ hidden: 'small' });
    expect(lastWeekOf(kept, 'Goals')).toEqual({ hidden: 'small' });
    expect(lastWeekOf(kept, 'Steady')).toEqual({ hidden: 'small' });

    // One of Goals moves to Floor (Goals, now 4, joins 'Other'): the weeks are counted again.
    const moved = await fetch(`${server.url}/scim/v2/Users/${goals[0]}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Floor' }],
      }),
    });
    expect(moved.status).toBe(200);
    const recounted = (await analytics('?by=department')).json;
    expect(recounted.groups!.groups.map((g) => g.name)).not.toContain('Goals');
    expect(lastWeekOf(recounted, 'Floor')).toEqual({ value: 6 });
    // Only the groups whose members changed are counted again: Steady's kept week stands.
    expect(lastWeekOf(recounted, 'Steady')).toEqual({ hidden: 'small' });
  });

  it('refuses a breakdown by manager whose team is all but a few of a department', async () => {
    const [managerId] = await provision(1, 'Sales');
    await provision(6, 'Sales', String(managerId));
    const refused = await analytics('?by=manager');
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe(organisationTexts.analytics.refused('manager', 5));
    // The department breakdown is refused too: Sales (7) less its manager's team (6) is one person.
    expect((await analytics('?by=department')).status).toBe(422);
    expect((await analytics()).status).toBe(200);
  });

  it('refuses an unknown breakdown with a clear message', async () => {
    const res = await analytics('?by=salary');
    expect(res.status).toBe(400);
    expect(res.text).toContain(organisationTexts.analytics.unknownGrouping);
  });
});

describe('the weeks', () => {
  it('are the 52 Mondays up to the current week', () => {
    const weeks = lastWeeks(new Date('2026-12-03T10:00:00Z'), 52);
    expect(weeks.at(-1)).toBe('2026-11-30');
    expect(weeks[0]).toBe('2025-12-08');
    expect(weekOf(new Date('2026-12-06T23:59:59Z'))).toBe('2026-11-30');
  });
});

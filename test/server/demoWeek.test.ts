import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Chat } from '../../src/server/db/entities/Chat.js';
import { Goal } from '../../src/server/db/entities/Goal.js';
import { MeetingPrep } from '../../src/server/db/entities/MeetingPrep.js';
import { Memory } from '../../src/server/db/entities/Memory.js';
import { User } from '../../src/server/db/entities/User.js';
import { refreshDemoSamples } from '../../src/server/features/auth/demoWeek.js';
import { meetingsTexts } from '../../src/shared/texts/index.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// Issue 38, item 1: the demo carries a week. Through the real server in demo mode, with the
// offline coach and a Graph fake that must never be asked anything about a sample meeting.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let server: TestServer;
let graph: FakeGraph;

beforeAll(async () => {
  graph = await startFakeGraph();
  server = await startTestServer({ DEMO_MODE: 'true', RATE_LIMIT_GUEST_PER_HOUR: '0', RATE_LIMIT_LOGIN_PER_ADDRESS: '0', MICROSOFT_GRAPH_BASE_URL: graph.url });
});
afterAll(async () => {
  await server?.stop();
  await graph?.close();
});

const day = 86_400_000;
const em = () => server.deps.orm.em.fork();
const template = async () => em().findOneOrFail(User, { isDemo: true });

/** The calendar date of an instant in a time zone, as YYYY-MM-DD. */
const dateIn = (at: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));

type Meeting = { id: string; subject: string; start: string; end: string; sample: boolean; prepChatId: number | null; agendaSavedAt: string | null; attendees: Array<{ name: string }> };

async function sampleWeekOf(http: HttpClient, timeZone = 'UTC', days = 7) {
  const res = await http.get(`/api/meetings?days=${days}&timeZone=${encodeURIComponent(timeZone)}`);
  expect(res.status).toBe(200);
  return res.json as { meetings: Meeting[]; timeZone: string; sample: boolean };
}

async function settledMessages(http: HttpClient, chatId: number) {
  return eventually(async () => {
    const res = await http.get(`/api/chats/${chatId}/messages`);
    const last = (res.json as Array<{ role: string; status: string; content: string }>).at(-1);
    return last && last.role === 'assistant' && last.status !== 'streaming' ? (res.json as Array<{ role: string; status: string; content: string }>) : undefined;
  }, 30_000);
}

describe('a visitor without a cookie', () => {
  it('sees two sample goals with check-ins, one with weekly reminders', async () => {
    const visitor = new HttpClient(server.url);
    const res = await visitor.get('/api/goals');
    expect(res.status).toBe(200);
    const goals = res.json.goals as Array<{ title: string; sample: boolean; cadence: string; status: string; keyResults: Array<{ checkIns: unknown[] }> }>;
    expect(goals).toHaveLength(2);
    expect(goals.every((g) => g.sample)).toBe(true);
    expect(goals.map((g) => g.cadence).sort()).toEqual(['off', 'weekly']);
    for (const goal of goals) {
      expect(goal.status).toBe('on_track');
      for (const kr of goal.keyResults) expect(kr.checkIns.length).toBeGreaterThanOrEqual(3);
    }
    expect(visitor.cookieHeader).toBe('');
  });

  it('sees sample memories, one a commitment due this week', async () => {
    const visitor = new HttpClient(server.url);
    const res = await visitor.get('/api/memories');
    expect(res.status).toBe(200);
    const memories = res.json.memories as Array<{ kind: string; sample: boolean; dueAt: string | null; doneAt: string | null }>;
    expect(memories.length).toBeGreaterThanOrEqual(4);
    expect(memories.every((m) => m.sample)).toBe(true);
    const commitments = memories.filter((m) => m.kind === 'commitment');
    expect(commitments).toHaveLength(1);
    const due = Date.parse(commitments[0]!.dueAt!);
    expect(due).toBeGreaterThan(Date.now());
    expect(due).toBeLessThan(Date.now() + 7 * day);
    expect(visitor.cookieHeader).toBe('');
  });

  it('gets a sample week of meetings dated from today in their time zone, not the 409', async () => {
    const visitor = new HttpClient(server.url);
    const week = await sampleWeekOf(visitor, 'Asia/Kolkata');
    expect(week).toMatchObject({ sample: true, timeZone: 'Asia/Kolkata' });
    expect(week.meetings.length).toBeGreaterThanOrEqual(4);
    const now = Date.now();
    for (const meeting of week.meetings) {
      expect(meeting.sample).toBe(true);
      expect(meeting.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\+05:30$/);
      expect(Date.parse(meeting.end)).toBeGreaterThan(now);
      expect(Date.parse(meeting.start)).toBeLessThan(now + 7 * day);
      // The id carries the meeting's own date in the visitor's zone.
      expect(meeting.id.replace(/^sample-(\d{4})(\d{2})(\d{2})-\d+$/, '$1-$2-$3')).toBe(dateIn(Date.parse(meeting.start), 'Asia/Kolkata'));
    }
    const starts = week.meetings.map((m) => Date.parse(m.start));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    // Dated from today: the first day of the week is today or tomorrow (today's may be over).
    expect([dateIn(now, 'Asia/Kolkata'), dateIn(now + day, 'Asia/Kolkata')]).toContain(dateIn(starts[0]!, 'Asia/Kolkata'));
    // Another zone, the same wall times at other instants.
    // Which of the week's meetings are already over depends on the hour in each zone (at 18:35 UTC
    // Kolkata's day has just begun while UTC's 16:00 is over), so compare the meetings both answer,
    // matched by their place in the week (the id's last part).
    const utc = await sampleWeekOf(visitor, 'UTC', 14);
    const wallBySlot = (meetings: Meeting[]) => new Map(meetings.map((m) => [m.id.split('-').at(-1)!, m.start.slice(11, 16)]));
    const kolkataWall = wallBySlot(week.meetings);
    const utcWall = wallBySlot(utc.meetings);
    const both = [...utcWall.keys()].filter((slot) => kolkataWall.has(slot));
    expect(both.length).toBeGreaterThanOrEqual(3);
    for (const slot of both) expect(utcWall.get(slot)).toBe(kolkataWall.get(slot));
    expect(await visitor.get('/api/meetings?timeZone=Mars/Olympus')).toMatchObject({ status: 400, json: { message: meetingsTexts.badTimeZone } });
    expect(graph.requests).toHaveLength(0);
    expect(visitor.cookieHeader).toBe('');
  });
});

describe('preparing a sample meeting', () => {
  it("makes a prep chat in the visitor's own space with the offline coach's agenda; the template is unchanged", async () => {
    const templateUser = await template();
    const chatsBefore = await em().count(Chat, { owner: templateUser.id });
    const visitor = new HttpClient(server.url);
    const [meeting] = (await sampleWeekOf(visitor, 'Europe/Paris')).meetings;
    const prep = await visitor.post(`/api/meetings/${meeting!.id}/prep`, { timeZone: 'Europe/Paris' });
    expect(prep.status).toBe(201);
    expect(visitor.cookieHeader).toMatch(/ai_coach_session=/);
    const session = await visitor.get('/api/auth/session');
    const guestId = session.json.user.id as number;
    expect(guestId).not.toBe(templateUser.id);

    const messages = await settledMessages(visitor, prep.json.chatId);
    expect(messages).toEqual([expect.objectContaining({ role: 'assistant', status: 'complete', content: expect.stringMatching(/agenda/i) })]);
    const chat = await em().findOneOrFail(Chat, prep.json.chatId);
    expect(chat.owner.id).toBe(guestId);
    expect(chat.title).toBe(meetingsTexts.prepChatTitle(meeting!.subject));
    const row = await em().findOneOrFail(MeetingPrep, { eventId: meeting!.id });
    expect(row.owner.id).toBe(guestId);
    expect(row.invite.start).toBe(meeting!.start);

    // The visitor's week shows the prep; their copies of the samples came with the space.
    const after = await sampleWeekOf(visitor, 'Europe/Paris');
    expect(after.meetings.find((m) => m.id === meeting!.id)).toMatchObject({ prepChatId: prep.json.chatId, sample: true });
    expect((await visitor.get('/api/goals')).json.goals).toHaveLength(2);
    expect(await em().count(Goal, { owner: guestId, isSample: true })).toBe(2);
    expect(await em().count(Memory, { owner: guestId, isSample: true })).toBe(await em().count(Memory, { owner: templateUser.id, isSample: true }));
    // Prepared again: the same chat.
    expect(await visitor.post(`/api/meetings/${meeting!.id}/prep`, { timeZone: 'Europe/Paris' })).toMatchObject({ status: 200, json: { chatId: prep.json.chatId } });

    // Nothing was written into the template, and nothing reached Graph.
    expect(await em().count(Chat, { owner: templateUser.id })).toBe(chatsBefore);
    expect(await em().count(MeetingPrep, { owner: templateUser.id })).toBe(0);
    const anonymous = await sampleWeekOf(new HttpClient(server.url), 'Europe/Paris');
    expect(anonymous.meetings.every((m) => m.prepChatId === null)).toBe(true);
    expect(graph.requests).toHaveLength(0);
  });

  it('answers 404 for a sample id of no sample meeting', async () => {
    const visitor = new HttpClient(server.url);
    expect(await visitor.post('/api/meetings/sample-20261199-0/prep')).toMatchObject({ status: 404, json: { message: meetingsTexts.notFound } });
    expect(await visitor.post('/api/meetings/sample-20261127-42/prep')).toMatchObject({ status: 404 });
    expect(await visitor.post('/api/meetings/AAMkRealLooking=/prep')).toMatchObject({ status: 404, json: { message: meetingsTexts.notFound } });
    expect(graph.requests).toHaveLength(0);
  });
});

describe('the coach knows the sample week', () => {
  it("answers what is on a visitor's plate from the sample meetings", async () => {
    const visitor = new HttpClient(server.url);
    const week = await sampleWeekOf(visitor);
    const chat = await visitor.post('/api/chats', { title: 'My week' });
    expect(chat.status).toBe(201);
    const sent = await visitor.post(`/api/chats/${chat.json.id}/messages`, { role: 'user', content: 'What meetings do I have this week?' });
    expect(sent.status).toBe(201);
    const reply = (await settledMessages(visitor, chat.json.id)).at(-1)!;
    expect(reply.status).toBe('complete');
    expect(week.meetings.some((m) => reply.content.includes(m.subject))).toBe(true);
  });
});

describe('agenda actions on a sample meeting', () => {
  it('say plainly that nothing is sent, and send nothing to Graph', async () => {
    const visitor = new HttpClient(server.url);
    const [meeting] = (await sampleWeekOf(visitor)).meetings;
    const prep = await visitor.post(`/api/meetings/${meeting!.id}/prep`);
    expect(prep.status).toBe(201);
    await settledMessages(visitor, prep.json.chatId);

    const saved = await visitor.post(`/api/meetings/${meeting!.id}/agenda`, { text: '1. Wins (5 min)' });
    expect(saved).toMatchObject({ status: 200, json: { sample: true, sent: false, agendaSavedAt: null, subject: meeting!.subject, message: meetingsTexts.sampleNotSaved } });
    const emailed = await visitor.post(`/api/meetings/${meeting!.id}/agenda/email`, { text: '1. Wins (5 min)' });
    expect(emailed).toMatchObject({ status: 200, json: { sample: true, sent: false, recipients: [], message: meetingsTexts.sampleNotEmailed } });
    // Nor before a prep, nor over tRPC.
    const [, other] = (await sampleWeekOf(visitor)).meetings;
    expect(await visitor.post('/trpc/meetings.emailAgenda', { id: other!.id, text: 'Hello' })).toMatchObject({ status: 200, json: { result: { data: { sent: false } } } });

    const week = await sampleWeekOf(visitor);
    expect(week.meetings.find((m) => m.id === meeting!.id)?.agendaSavedAt).toBeNull();
    const chat = await visitor.get(`/trpc/meetings.prepOfChat?input=${encodeURIComponent(JSON.stringify({ chatId: prep.json.chatId }))}`);
    expect(chat.json.result.data.prep).toMatchObject({ meetingId: meeting!.id, sample: true, agendaSavedAt: null, agendaEmailedAt: null });
    expect(graph.requests).toHaveLength(0);
  });
});

describe('registered accounts', () => {
  it('get the 409 asking to connect Microsoft Calendar, never samples', async () => {
    const { http } = await signUp(server.url, 'dw_registered', 'Reg Istered');
    expect(await http.get('/api/meetings?timeZone=UTC')).toMatchObject({ status: 409, json: { message: meetingsTexts.notConnected } });
    const sampleId = `sample-${dateIn(Date.now(), 'UTC').replaceAll('-', '')}-1`;
    expect(await http.post(`/api/meetings/${sampleId}/prep`)).toMatchObject({ status: 409 });
    expect(await http.post(`/api/meetings/${sampleId}/agenda`, { text: '1. Items' })).toMatchObject({ status: 409 });
    expect((await http.get('/api/goals')).json.goals).toEqual([]);
    expect((await http.get('/api/memories')).json.memories).toEqual([]);
  });
});

describe("the template's samples", () => {
  it('are written anew once they are a day old, and not before', async () => {
    const templateUser = await template();
    const before = await em().find(Goal, { owner: templateUser.id, isSample: true }, { orderBy: { id: 'asc' } });
    expect(await refreshDemoSamples(server.deps.orm)).toBe(false);
    expect(await refreshDemoSamples(server.deps.orm, Date.now() + 2 * day)).toBe(true);
    const after = await em().find(Goal, { owner: templateUser.id, isSample: true }, { orderBy: { id: 'asc' } });
    expect(after).toHaveLength(2);
    expect(after[0]!.id).toBeGreaterThan(before.at(-1)!.id);
    expect(after[0]!.createdAt.getTime() - before[0]!.createdAt.getTime()).toBeGreaterThan(1.9 * day);
    expect(await em().count(Memory, { owner: templateUser.id, isSample: true, kind: 'commitment' })).toBe(1);
  });
});

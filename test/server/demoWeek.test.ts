import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Chat } from '../../src/server/db/entities/Chat.js';
import { Goal } from '../../src/server/db/entities/Goal.js';
import { MeetingPrep } from '../../src/server/db/entities/MeetingPrep.js';
import { Memory } from '../../src/server/db/entities/Memory.js';
import { User } from '../../src/server/db/entities/User.js';
import { Message } from '../../src/server/db/entities/Message.js';
import { NudgeRun } from '../../src/server/db/entities/Nudge.js';
import { Rehearsal } from '../../src/server/db/entities/Rehearsal.js';
import { refreshDemoSamples } from '../../src/server/features/auth/demoWeek.js';
import { computeReport } from '../../src/shared/rehearsalReport.js';
import type { ComputedReport } from '../../src/shared/schemas/rehearsals.js';
import { authTexts, meetingsTexts, nudgesTexts, rehearsalTexts } from '../../src/shared/texts/index.js';
import { defaultNudgeSettings } from '../../src/shared/schemas/nudges.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The demo carries a week. Through the real server in demo mode, with the
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
  it("are dated anew once they are a day old, and not before, where they are: a visitor's page from before still writes", async () => {
    const templateUser = await template();
    const before = await em().find(Goal, { owner: templateUser.id, isSample: true }, { orderBy: { id: 'asc' } });
    const memoriesBefore = await em().find(Memory, { owner: templateUser.id, isSample: true }, { orderBy: { id: 'asc' } });
    // A visitor's page, loaded before the refresh, holds the template's ids.
    const visitor = new HttpClient(server.url);
    const goals = (await visitor.get('/api/goals')).json.goals as Array<{ id: number; keyResults: Array<{ id: number; checkIns: unknown[] }> }>;
    expect(goals.map((goal) => goal.id).sort()).toEqual(before.map((goal) => goal.id).sort());

    expect(await refreshDemoSamples(server.deps)).toBe(false);
    expect(await refreshDemoSamples(server.deps, Date.now() + 2 * day)).toBe(true);
    const after = await em().find(Goal, { owner: templateUser.id, isSample: true }, { orderBy: { id: 'asc' } });
    expect(after.map((goal) => goal.id)).toEqual(before.map((goal) => goal.id));
    for (const [i, goal] of after.entries()) {
      expect(goal.createdAt.getTime() - before[i]!.createdAt.getTime()).toBeGreaterThan(1.9 * day);
      expect(goal.dueDate > before[i]!.dueDate).toBe(true);
    }
    const memoriesAfter = await em().find(Memory, { owner: templateUser.id, isSample: true }, { orderBy: { id: 'asc' } });
    expect(memoriesAfter.map((memory) => memory.id)).toEqual(memoriesBefore.map((memory) => memory.id));
    const commitment = memoriesAfter.find((memory) => memory.kind === 'commitment')!;
    expect(commitment.dueAt!.getTime() - memoriesBefore.find((memory) => memory.kind === 'commitment')!.dueAt!.getTime()).toBeGreaterThan(1.9 * day);
    // The check-ins are written again, as many, dated from the refresh.
    const read = (await visitor.get(`/api/goals/${goals[0]!.id}`)).json as { keyResults: Array<{ checkIns: Array<{ createdAt: string }> }> };
    expect(read.keyResults[0]!.checkIns).toHaveLength(goals[0]!.keyResults[0]!.checkIns.length);

    // The visitor's first write, with the ids their page held: their space, with the check-in.
    const checkIn = await visitor.post(`/api/goals/${goals[0]!.id}/check-ins`, { keyResultId: goals[0]!.keyResults[0]!.id, value: 7, note: 'after the refresh' });
    expect(checkIn.status).toBe(201);
    expect((await visitor.get(`/api/goals/${goals[0]!.id}`)).json.keyResults[0].checkIns).toHaveLength(goals[0]!.keyResults[0]!.checkIns.length + 1);
  });

  it('are written anew when they are not as written (a sample missing)', async () => {
    const templateUser = await template();
    const memories = await em().find(Memory, { owner: templateUser.id, isSample: true });
    await em().nativeDelete(Memory, { id: memories[0]!.id });
    expect(await refreshDemoSamples(server.deps, Date.now() + 4 * day)).toBe(true);
    expect(await em().count(Memory, { owner: templateUser.id, isSample: true })).toBe(memories.length);
    expect(await em().count(Goal, { owner: templateUser.id, isSample: true })).toBe(2);
    expect(await em().count(Memory, { owner: templateUser.id, isSample: true, kind: 'commitment' })).toBe(1);
  });
});

// One finished example of a rehearsal and of a weekly review in the template, copied
// with a visitor's space; the template's ids of its samples keep naming the visitor's copies.
type RehearsalView = { id: number; chatId: number; sample: boolean; goal: string; report: (ComputedReport & { createdAt: string; checks?: unknown; wentWrong?: unknown; verdict?: unknown; judged: { goalMet: string; improvements: Array<{ quote: string }> } | null }) | null };
type Run = { id: number; kind: string; status: string; sample: boolean; chatId: number | null; channels: string[] };
type ChatMessage = { id: number; role: string; content: string; status: string };

async function examplesOf(http: HttpClient) {
  const rehearsals = await http.get('/api/rehearsals');
  expect(rehearsals.status).toBe(200);
  const runs = await http.get('/api/nudges/runs');
  expect(runs.status).toBe(200);
  return { rehearsals: rehearsals.json.rehearsals as RehearsalView[], runs: runs.json.runs as Run[] };
}

describe('the example rehearsal and weekly review', () => {
  it('a visitor without a cookie sees the finished rehearsal with its computed report, and the review in the history', async () => {
    const visitor = new HttpClient(server.url);
    const { rehearsals, runs } = await examplesOf(visitor);
    expect(rehearsals).toHaveLength(1);
    const [rehearsal] = rehearsals;
    expect(rehearsal).toMatchObject({ sample: true, counterpart: { name: 'Priya Shah' } });
    expect(await visitor.get(`/api/rehearsals/${rehearsal!.id}`)).toMatchObject({ status: 200, json: { id: rehearsal!.id, sample: true } });

    // The report is the one computed from the chat's turns (the report posted into it left out), judged offline.
    const messages = (await visitor.get(`/api/chats/${rehearsal!.chatId}/messages`)).json as ChatMessage[];
    const turns = messages.slice(0, -1).map((m) => ({ role: m.role === 'user' ? ('user' as const) : ('counterpart' as const), content: m.content }));
    expect(turns.length).toBeGreaterThanOrEqual(6);
    const { createdAt: _at, judged, checks: _checks, wentWrong: _wrong, verdict: _verdict, ...computed } = rehearsal!.report!;
    expect(computed).toEqual(computeReport(turns));
    expect(computed.fillerWords.count).toBeGreaterThan(0);
    expect(judged).toMatchObject({ goalMet: 'yes' });
    for (const improvement of judged!.improvements) expect(turns.some((t) => t.role === 'user' && t.content.includes(improvement.quote))).toBe(true);
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringContaining(rehearsalTexts.reportHeading) });

    // The weekly review: a sent run, its chat with the coach's first message written from the sample facts.
    expect(runs).toEqual([expect.objectContaining({ kind: 'weekly_review', status: 'sent', sample: true, channels: ['app'] })]);
    const chats = (await visitor.get('/api/chats')).json as Array<{ id: number; title: string; isRehearsal: boolean }>;
    const reviewChat = chats.find((c) => c.id === runs[0]!.chatId)!;
    const date = reviewChat.title.replace(/^Weekly review: /, '');
    expect(reviewChat.title).toBe(nudgesTexts.weeklyReviewTitle(date));
    expect(chats.find((c) => c.id === rehearsal!.chatId)).toMatchObject({ isRehearsal: true });
    const review = (await visitor.get(`/api/chats/${reviewChat.id}/messages`)).json as ChatMessage[];
    expect(review).toHaveLength(1);
    const content = review[0]!.content;
    // The review's shape: the focus first, at most 8 lines, one question last.
    const lines = content.split('\n').filter((line) => line.trim());
    expect(lines[0]!.startsWith(nudgesTexts.reviewFocusLine(''))).toBe(true);
    expect(lines.length).toBeLessThanOrEqual(8);
    expect(lines.at(-1)).toMatch(/\?$/);
    const goals = (await visitor.get('/api/goals')).json.goals as Array<{ title: string }>;
    for (const goal of goals) expect(content).toContain(goal.title);
    const week = await sampleWeekOf(visitor, 'UTC');
    expect(week.meetings.some((m) => content.includes(m.subject))).toBe(true);
    // Routine meetings (the weekly sync, the retro) are not listed as meetings to prepare.
    expect(content).not.toContain('Weekly team sync');
    expect(visitor.cookieHeader).toBe('');
  });

  it("are copied into a visitor's space on the first write, pointing at the copied chats; the template is unchanged", async () => {
    const templateUser = await template();
    const templateRehearsal = await em().findOneOrFail(Rehearsal, { owner: templateUser.id, isSample: true });
    const templateMessages = await em().count(Message, { chat: { owner: templateUser.id } });
    const visitor = new HttpClient(server.url);
    const before = await examplesOf(visitor);
    const goals = (await visitor.get('/api/goals')).json.goals as Array<{ id: number; title: string; keyResults: Array<{ id: number; checkIns: unknown[] }> }>;
    const goal = goals[0]!;
    const memories = (await visitor.get('/api/memories')).json.memories as Array<{ id: number; text: string }>;

    // The first write: a check-in on a sample goal, named by the template's ids (as the page holds them).
    const checkIn = await visitor.post(`/api/goals/${goal.id}/check-ins`, { keyResultId: goal.keyResults[0]!.id, value: 7, note: 'first write' });
    expect(checkIn.status).toBe(201);
    const guestId = (await visitor.get('/api/auth/session')).json.user.id as number;
    expect(guestId).not.toBe(templateUser.id);

    // A template goal id read after the first write answers the copy, with the check-in.
    const read = await visitor.get(`/api/goals/${goal.id}`);
    expect(read.status).toBe(200);
    const copy = await em().findOneOrFail(Goal, { owner: guestId, title: goal.title });
    expect(copy.sampleOf).toBe(goal.id);
    expect(read.json.id).toBe(copy.id);
    expect(read.json.keyResults[0].checkIns).toHaveLength(goal.keyResults[0]!.checkIns.length + 1);
    expect((await em().findOneOrFail(Goal, goal.id)).owner.id).toBe(templateUser.id);
    // A template memory id names the copy too.
    const memory = memories[0]!;
    expect(await visitor.request('PATCH', `/api/memories/${memory.id}`, { text: `${memory.text} (edited)` })).toMatchObject({ status: 200 });
    expect(await em().findOneOrFail(Memory, { owner: guestId, sampleOf: memory.id })).toMatchObject({ text: `${memory.text} (edited)` });
    expect(await em().findOneOrFail(Memory, memory.id)).toMatchObject({ text: memory.text });

    // The copies of the examples, in the visitor's own chats.
    const after = await examplesOf(visitor);
    expect(after.rehearsals).toHaveLength(1);
    const ownRehearsal = await em().findOneOrFail(Rehearsal, { owner: guestId }, { populate: ['chat'] });
    expect(ownRehearsal).toMatchObject({ isSample: true, sampleOf: templateRehearsal.id });
    expect(ownRehearsal.chat.owner.id).toBe(guestId);
    expect(after.rehearsals[0]).toMatchObject({ id: ownRehearsal.id, chatId: before.rehearsals[0]!.chatId, report: before.rehearsals[0]!.report, sample: true });
    expect(ownRehearsal.reportMessageIds).toHaveLength(1);
    expect((await em().findOneOrFail(Message, ownRehearsal.reportMessageIds![0]!)).chat.id).toBe(ownRehearsal.chat.id);
    expect(await visitor.get(`/api/rehearsals/${templateRehearsal.id}`)).toMatchObject({ status: 200, json: { id: ownRehearsal.id } });
    expect(after.runs).toEqual([expect.objectContaining({ sample: true, status: 'sent', chatId: before.runs[0]!.chatId })]);
    const ownRun = await em().findOneOrFail(NudgeRun, { owner: guestId }, { populate: ['chat'] });
    expect(ownRun.chat!.owner.id).toBe(guestId);
    expect(ownRun.chat!.sampleOf).toBe(before.runs[0]!.chatId);
    const reviewCopy = (await visitor.get(`/api/chats/${before.runs[0]!.chatId}/messages`)).json as ChatMessage[];
    expect(reviewCopy).toHaveLength(1);

    // Nothing was written into the template.
    expect(await em().count(Rehearsal, { owner: templateUser.id })).toBe(1);
    expect(await em().count(NudgeRun, { owner: templateUser.id })).toBe(1);
    expect(await em().count(Message, { chat: { owner: templateUser.id } })).toBe(templateMessages);
    expect(await examplesOf(new HttpClient(server.url))).toEqual(before);
  });

  it("a retry of the example from one of its turns is a visitor's first write, in their space", async () => {
    const visitor = new HttpClient(server.url);
    const [example] = (await examplesOf(visitor)).rehearsals;
    const messages = (await visitor.get(`/api/chats/${example!.chatId}/messages`)).json as ChatMessage[];
    const secondTurn = messages.filter((m) => m.role === 'user')[1]!;
    const retry = await visitor.post(`/api/rehearsals/${example!.id}/retry`, { fromMessageId: secondTurn.id });
    expect(retry.status).toBe(201);
    expect(visitor.cookieHeader).toMatch(/ai_coach_session=/);
    const earlier = (await visitor.get(`/api/chats/${retry.json.chatId}/messages`)).json as ChatMessage[];
    expect(earlier.map((m) => m.content)).toEqual(messages.slice(0, messages.indexOf(secondTurn)).map((m) => m.content));
    const guestId = (await visitor.get('/api/auth/session')).json.user.id as number;
    expect(await em().findOneOrFail(Rehearsal, retry.json.id)).toMatchObject({ isSample: false, retryOf: (await em().findOneOrFail(Rehearsal, { owner: guestId, isSample: true })).id });
  });

  it('are dated anew with the samples, under the same chat ids', async () => {
    const templateUser = await template();
    const run = await em().findOneOrFail(NudgeRun, { owner: templateUser.id, isSample: true }, { populate: ['chat'] });
    const rehearsal = await em().findOneOrFail(Rehearsal, { owner: templateUser.id, isSample: true });
    // (The samples' test above dated them two days on.)
    const later = Date.now() + 5 * day;
    expect(await refreshDemoSamples(server.deps, later)).toBe(true);
    const runAfter = await em().findOneOrFail(NudgeRun, { owner: templateUser.id, isSample: true }, { populate: ['chat'] });
    expect(runAfter.chat!.id).toBe(run.chat!.id);
    expect(runAfter.chat!.title).toBe(nudgesTexts.weeklyReviewTitle(dateIn(later, 'UTC')));
    expect(runAfter.createdAt.getTime()).toBe(later);
    const rehearsalAfter = await em().findOneOrFail(Rehearsal, { owner: templateUser.id, isSample: true });
    expect(rehearsalAfter.id).toBe(rehearsal.id);
    expect(rehearsalAfter.createdAt.getTime()).toBe(later - 2 * day);
    expect(await em().count(Chat, { owner: templateUser.id })).toBe(6);
  });

  it('registered accounts never get them', async () => {
    const { http } = await signUp(server.url, 'dw_registered2', 'Reg Istered');
    expect(await examplesOf(http)).toEqual({ rehearsals: [], runs: [] });
  });
});

// Issue 49: run now for a visitor. An in-app review connects nothing, so a visitor may run one
// (their first write makes their space); a guest's run is written in the app only, never mailed,
// pushed or called, whatever its stored settings say; the per-user run limit still holds.
describe("a visitor's run now", () => {
  it('is written in the app only, in the space it makes, and is limited like anyone else', async () => {
    const visitor = new HttpClient(server.url);
    const run = await visitor.post('/api/nudges/run', { kind: 'weekly_review' });
    expect(run.status).toBe(202);
    expect(visitor.cookieHeader).not.toBe('');
    const sent = await eventually(async () => ((await visitor.get('/api/nudges/runs')).json.runs as Run[]).find((r) => r.id === run.json.runId && r.status !== 'queued'), 20_000);
    expect(sent).toMatchObject({ status: 'sent', channels: ['app'], sample: false, chatId: expect.any(Number) });
    const chats = (await visitor.get('/api/chats')).json as Array<{ id: number; title: string }>;
    expect(chats.find((c) => c.id === sent.chatId)?.title).toMatch(/^Weekly review: /);

    // Settings that ask for email, push and a call (a guest cannot save them: written here) change nothing.
    const guest = (await em().findOneOrFail(NudgeRun, run.json.runId, { populate: ['owner'] })).owner;
    expect(guest.isGuest).toBe(true);
    await em().getConnection().execute(`insert into "nudge_setting" ("user_id", "settings", "updated_at") values (?, ?::jsonb, now())`, [guest.id, JSON.stringify({ ...defaultNudgeSettings, channels: { email: true, push: true, call: true } })]);
    const second = await visitor.post('/api/nudges/run', { kind: 'weekly_review' });
    expect(second.status).toBe(202);
    const queued = await em().findOneOrFail(NudgeRun, second.json.runId);
    expect(queued.channels).toEqual(['app']);
    const done = await eventually(async () => ((await visitor.get('/api/nudges/runs')).json.runs as Run[]).find((r) => r.id === second.json.runId && r.status !== 'queued'), 20_000);
    expect(done).toMatchObject({ status: 'sent', channels: ['app'] });

    // The settings stay a registered account's (refused with what to do), and the limit holds: 5 an hour.
    const settings = await visitor.get('/api/nudges/settings');
    expect(settings.status).toBe(403);
    expect(settings.json.message).toBe(authTexts.accountRequiredFor.nudgeSettings);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await visitor.post('/api/nudges/run', { kind: 'weekly_review' })).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { vapidKeys } from '../../src/server/providers/push/vapid.js';
import { nudgeEmailHtml } from '../../src/server/features/nudges/nudgeEmail.js';
import { startFakePushService, type FakePushService } from '../fakes/push.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { Goal } from '../../src/server/db/entities/Goal.js';
import { NudgeRun, PushSubscription } from '../../src/server/db/entities/Nudge.js';
import { formatLocal, inQuietHours, localParts, nextWeeklyRun, quietHoursEnd } from '../../src/server/features/nudges/schedule.js';
import { defaultNudgeSettings } from '../../src/shared/schemas/nudges.js';
import { apiKeyTexts, nudgesTexts } from '../../src/shared/texts/index.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// Proactive coaching through the real server: the settings and their validation, run
// now and the weekly review's content (goal, due commitment, unprepared meeting from the Graph
// fake), the meeting brief, the history, and the queue: quiet hours, the weekly cap, a run due
// during a restart, retries with back-off, planning across DST, all on a clock the test moves.

vi.setConfig({ testTimeout: 60_000 });

let graph: FakeGraph;
let database: FreshDatabase;
let server: TestServer;
// The job queue's clock, the nudges' too: pg-boss's TestClock, which the database's job_now()
// reads as well (so the queue decides what is due by it). Set to the real time before each test.
const queueClock = new TestClock();
const setClock = (at: Date | number) => queueClock.setTime(at);
let users = 0;

const hour = 3_600_000;
const inHours = (h: number) => new Date(Math.floor((Date.now() + h * hour) / 60_000) * 60_000).toISOString();

beforeAll(async () => {
  graph = await startFakeGraph();
  database = await freshDatabase();
  server = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, WEB_PUSH_ALLOWED_HOSTS: '127.0.0.1' }, database, { queueClock });
});
afterAll(async () => {
  await server?.stop();
  await database?.dispose();
  await graph?.close();
});
beforeEach(async () => {
  await setClock(Date.now());
});

const newUser = async (prefix = 'nudge') => signUp(server.url, `${prefix}_${++users}_${Date.now() % 100000}`);
const setTimeZone = async (http: HttpClient, timeZone: string) => expect((await http.post('/trpc/meetings.setTimeZone', { timeZone })).status).toBe(200);
const runsOf = async (http: HttpClient) => {
  const res = await http.get('/api/nudges/runs');
  expect(res.status).toBe(200);
  return res.json.runs as Array<{ id: number; kind: string; status: string; channels: string[]; reason: string | null; chatId: number | null; createdAt: string; dueAt: string; trigger: string }>;
};
/** A review's lines, the blank lines between its blocks left out. */
const filledLines = (content: string) => content.split('\n').filter((line) => line.trim());
const firstMessage = async (http: HttpClient, chatId: number) => {
  const res = await http.get(`/api/chats/${chatId}/messages`);
  expect(res.status).toBe(200);
  return res.json[0] as { role: string; content: string };
};

describe('planning in the user time zone', () => {
  it('keeps Monday 08:30 local on both sides of a daylight-saving change', () => {
    // Europe/Paris moves to summer time on Sunday 2026-03-29.
    expect(nextWeeklyRun(new Date('2026-03-20T12:00:00Z'), 'Europe/Paris', 'mon', '08:30').toISOString()).toBe('2026-03-23T07:30:00.000Z');
    expect(nextWeeklyRun(new Date('2026-03-24T12:00:00Z'), 'Europe/Paris', 'mon', '08:30').toISOString()).toBe('2026-03-30T06:30:00.000Z');
    // New York, back to standard time on Sunday 2026-11-01.
    expect(nextWeeklyRun(new Date('2026-10-27T00:00:00Z'), 'America/New_York', 'mon', '08:30').toISOString()).toBe('2026-11-02T13:30:00.000Z');
    // Today, when the time is still ahead; next week when it has passed.
    expect(nextWeeklyRun(new Date('2026-03-23T07:00:00Z'), 'Europe/Paris', 'mon', '08:30').toISOString()).toBe('2026-03-23T07:30:00.000Z');
    expect(nextWeeklyRun(new Date('2026-03-23T07:30:00Z'), 'Europe/Paris', 'mon', '08:30').toISOString()).toBe('2026-03-30T06:30:00.000Z');
  });

  it('reads quiet hours over midnight and finds their end', () => {
    const quiet = { start: '20:00', end: '07:00' };
    expect(inQuietHours(new Date('2026-03-23T20:30:00Z'), 'Europe/Paris', quiet)).toBe(true); // 21:30
    expect(inQuietHours(new Date('2026-03-24T05:30:00Z'), 'Europe/Paris', quiet)).toBe(true); // 06:30
    expect(inQuietHours(new Date('2026-03-24T06:30:00Z'), 'Europe/Paris', quiet)).toBe(false); // 07:30
    expect(quietHoursEnd(new Date('2026-03-23T20:30:00Z'), 'Europe/Paris', quiet).toISOString()).toBe('2026-03-24T06:00:00.000Z');
    expect(quietHoursEnd(new Date('2026-03-24T05:30:00Z'), 'Europe/Paris', quiet).toISOString()).toBe('2026-03-24T06:00:00.000Z');
  });

  it('reads each zone with its own formatter, kept once made: an unknown zone is UTC, a zone in another case is the same zone', () => {
    const at = new Date('2026-03-23T23:30:00Z');
    expect(localParts(at, 'Asia/Tokyo')).toEqual({ date: '2026-03-24', weekday: 'tue', minutes: 8 * 60 + 30 });
    expect(localParts(at, 'America/Los_Angeles')).toEqual({ date: '2026-03-23', weekday: 'mon', minutes: 16 * 60 + 30 });
    // Asked again after another zone: still Tokyo's, not the last one's.
    expect(localParts(at, 'Asia/Tokyo').date).toBe('2026-03-24');
    expect(localParts(at, 'asia/tokyo').minutes).toBe(8 * 60 + 30);
    expect(localParts(at, 'Not/AZone')).toEqual({ date: '2026-03-23', weekday: 'mon', minutes: 23 * 60 + 30 });
    expect(formatLocal(at, 'Not/AZone')).toBe('2026-03-23 23:30 (UTC)');
    expect(formatLocal(at, 'Europe/Paris')).toBe('2026-03-24 00:30 (Europe/Paris)');
  });
});

describe('settings', () => {
  it('answers the defaults with the next planned run, and saves valid settings', async () => {
    const { http } = await newUser();
    const res = await http.get('/api/nudges/settings');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ...defaultNudgeSettings, timeZone: 'UTC', nextRun: { kind: 'weekly_review', at: expect.any(String) } });
    expect(new Date(res.json.nextRun.at).getUTCDay()).toBe(1);
    expect(res.json.nextRun.at).toMatch(/T08:30:00/);

    await setTimeZone(http, 'Europe/Paris');
    const settings = { ...defaultNudgeSettings, weeklyReview: { enabled: true, day: 'fri', time: '16:45' }, meetingBrief: { enabled: true, minutesBefore: 30 }, maxPerWeek: 3 };
    const saved = await http.put('/api/nudges/settings', settings);
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ ...settings, timeZone: 'Europe/Paris' });
    const at = new Date(saved.json.nextRun.at);
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at)).toBe('Fri 16:45');
    expect((await http.get('/api/nudges/settings')).json).toMatchObject(settings);
    // The planned run is in the history as queued, and turning the review off removes it.
    expect((await runsOf(http)).filter((r) => r.status === 'queued' && r.trigger === 'scheduled')).toHaveLength(1);
    const off = await http.put('/api/nudges/settings', { ...settings, weeklyReview: { ...settings.weeklyReview, enabled: false } });
    expect(off.json.nextRun).toBeNull();
    expect((await runsOf(http)).filter((r) => r.status === 'queued')).toHaveLength(0);
  });

  it.each([
    [{ weeklyReview: { enabled: true, day: 'monday', time: '08:30' } }, 'weeklyReview.day'],
    [{ weeklyReview: { enabled: true, day: 'mon', time: '8:30' } }, 'weeklyReview.time'],
    [{ weeklyReview: { enabled: 'yes', day: 'mon', time: '08:30' } }, 'weeklyReview.enabled'],
    [{ meetingBrief: { enabled: true, minutesBefore: 5 } }, 'meetingBrief.minutesBefore'],
    [{ meetingBrief: { enabled: true, minutesBefore: 1441 } }, 'meetingBrief.minutesBefore'],
    [{ quietHours: { start: '24:00', end: '07:00' } }, 'quietHours.start'],
    [{ quietHours: { start: '20:00', end: '7' } }, 'quietHours.end'],
    [{ maxPerWeek: 0 }, 'maxPerWeek'],
    [{ maxPerWeek: 15 }, 'maxPerWeek'],
    [{ maxPerWeek: 2.5 }, 'maxPerWeek'],
    [{ channels: { email: true, push: false } }, 'channels.call'],
  ])('refuses %j with a 400 naming %s', async (change, field) => {
    const { http } = await newUser();
    const res = await http.put('/api/nudges/settings', { ...defaultNudgeSettings, ...change });
    expect(res.status).toBe(400);
    expect(res.json.message).toContain(field);
    expect((await http.get('/api/nudges/settings')).json).toMatchObject(defaultNudgeSettings);
  });

  it('refuses an API key and a visitor without a session', async () => {
    const { http } = await newUser();
    const created = await http.post('/api/api-keys', { name: 'script' });
    expect(created.status).toBe(201);
    const script = new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${created.json.key}` } });
    for (const res of [await script.get('/api/nudges/settings'), await script.put('/api/nudges/settings', defaultNudgeSettings), await script.post('/api/nudges/run', { kind: 'weekly_review' }), await script.get('/api/nudges/runs')]) {
      expect(res.status).toBe(403);
      expect(res.json.message).toBe(apiKeyTexts.notWithApiKey);
    }
    expect((await new HttpClient(server.url).get('/api/nudges/runs')).status).toBe(401);
  });
});

describe('run now and the history', () => {
  it('writes a weekly review chat holding the goal, the due commitment, the unprepared meeting and one focus', async () => {
    const { http } = await newUser('review');
    const token = `calendar-token-${users}`;
    const box = graph.addMailbox({ tokens: [token], displayName: 'Review User', mail: `review${users}@contoso.example` });
    expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_calendar' })).status).toBe(200);
    box.addEvents([
      { subject: 'Pricing decision with Dana', start: inHours(30), end: inHours(31), attendees: [{ name: 'Dana Fox', email: 'dana@contoso.example', response: 'accepted' }] },
      { subject: 'Focus block', start: inHours(40), end: inHours(41) },
    ]);
    const goal = await http.post('/api/goals', { title: 'Launch the partner program', framework: 'OKR', dueDate: '2099-12-31', keyResults: [{ title: 'Signed partners', start: 0, target: 10 }] });
    expect(goal.status).toBe(201);
    expect((await http.post(`/api/goals/${goal.json.id}/check-ins`, { keyResultId: goal.json.keyResults[0].id, value: 4 })).status).toBe(201);
    expect((await http.post('/api/memories', { text: 'Send the board deck to Priya', kind: 'commitment', dueAt: new Date(Date.now() - 2 * 86_400_000).toISOString() })).status).toBe(201);
    expect((await http.post('/api/memories', { text: 'Renew the domain next quarter', kind: 'commitment', dueAt: new Date(Date.now() + 60 * 86_400_000).toISOString() })).status).toBe(201);

    const run = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    expect(run.status).toBe(202);
    expect(run.json).toEqual({ runId: expect.any(Number) });
    const sent = await eventually(async () => (await runsOf(http)).find((r) => r.id === run.json.runId && r.status === 'sent'), 20_000);
    expect(sent).toMatchObject({ kind: 'weekly_review', channels: ['app'], reason: null, chatId: expect.any(Number), trigger: 'manual' });

    const chats = (await http.get('/api/chats')).json as Array<{ id: number; title: string }>;
    const date = new Date().toISOString().slice(0, 10);
    expect(chats.find((c) => c.id === sent.chatId)?.title).toBe(`Weekly review: ${date}`);
    const message = await firstMessage(http, sent.chatId!);
    expect(message.role).toBe('assistant');
    const lines = filledLines(message.content);
    // The focus first: the overdue commitment.
    expect(lines[0]).toBe(nudgesTexts.reviewFocusLine(nudgesTexts.focusCommitment('Send the board deck to Priya')));
    expect(message.content).not.toContain('Renew the domain');
    // The meeting with others, not prepared, not routine; not the one alone.
    expect(message.content).toContain('Prepare “Pricing decision with Dana”');
    expect(message.content).toContain('with Dana Fox');
    expect(message.content).not.toContain('Focus block');
    // The goal is on track: acknowledged, not listed as a problem.
    expect(message.content).toContain('Progress: 1 check-in this week on 1 goal; “Launch the partner program” is on track.');
    expect(message.content).not.toContain('no check-in');
    // One question, the last line.
    expect(lines.at(-1)).toBe(nudgesTexts.questionCommitment('Send the board deck to Priya'));
    expect(lines.filter((line) => line.includes('?'))).toHaveLength(1);
    expect(lines.length).toBeLessThanOrEqual(8);

    // Once the meeting is prepared it is no longer listed.
    const meetings = (await http.get('/api/meetings')).json.meetings as Array<{ id: string; subject: string }>;
    const pricing = meetings.find((m) => m.subject === 'Pricing decision with Dana')!;
    expect((await http.post(`/api/meetings/${encodeURIComponent(pricing.id)}/prep`)).status).toBeLessThan(300);
    const again = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    const second = await eventually(async () => (await runsOf(http)).find((r) => r.id === again.json.runId && r.status === 'sent'), 20_000);
    expect((await firstMessage(http, second.chatId!)).content).not.toContain('Pricing decision with Dana');
    // Newest first.
    const ids = (await runsOf(http)).map((r) => r.id);
    expect(ids.indexOf(again.json.runId)).toBeLessThan(ids.indexOf(run.json.runId));
  });

  it('writes a meeting brief with the attendees, what memory knows of them, one question and a link to prepare', async () => {
    const { http } = await newUser('brief');
    const token = `brief-token-${users}`;
    const box = graph.addMailbox({ tokens: [token], displayName: 'Brief User', mail: `brief${users}@contoso.example` });
    expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_calendar' })).status).toBe(200);
    box.addEvents([{ subject: 'Quarterly planning', start: inHours(3), end: inHours(4), attendees: [{ name: 'Sam Lee', email: 'sam@contoso.example', response: 'accepted' }] }]);
    expect((await http.post('/api/memories', { text: 'Sam Lee prefers data before opinions', kind: 'person' })).status).toBe(201);
    const run = await http.post('/api/nudges/run', { kind: 'meeting_brief' });
    expect(run.status).toBe(202);
    const sent = await eventually(async () => (await runsOf(http)).find((r) => r.id === run.json.runId && r.status !== 'queued'), 20_000);
    expect(sent.status).toBe('sent');
    const content = (await firstMessage(http, sent.chatId!)).content;
    expect(content).toContain('Quarterly planning');
    expect(content).toContain('- Sam Lee: Sam Lee prefers data before opinions');
    expect(content).toContain('One question to think about');
    expect(content).toContain('(/meetings)');
  });

  it('skips a meeting brief without a calendar, saying why, and refuses an unknown kind', async () => {
    const { http } = await newUser('nocal');
    const run = await http.post('/api/nudges/run', { kind: 'meeting_brief' });
    const done = await eventually(async () => (await runsOf(http)).find((r) => r.id === run.json.runId && r.status !== 'queued'), 20_000);
    expect(done).toMatchObject({ status: 'skipped', reason: nudgesTexts.reasonNoCalendar, chatId: null });
    const bad = await http.post('/api/nudges/run', { kind: 'daily_tip' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('kind');
  });

  it('shows each user only their own runs', async () => {
    const a = await newUser('own_a');
    const b = await newUser('own_b');
    const run = await a.http.post('/api/nudges/run', { kind: 'weekly_review' });
    await eventually(async () => (await runsOf(a.http)).find((r) => r.id === run.json.runId && r.status === 'sent'), 20_000);
    expect((await runsOf(b.http)).map((r) => r.id)).not.toContain(run.json.runId);
  });
});

describe('the email channel', () => {
  it('mails the nudge from the user own mailbox to themselves, with the chat link and a working unsubscribe link', async () => {
    const { http } = await newUser('mail');
    const token = `mail-token-${users}`;
    const address = `mail${users}@contoso.example`;
    const box = graph.addMailbox({ tokens: [token], displayName: 'Mail User', mail: address });
    expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_email' })).status).toBe(200);
    expect((await http.put('/api/nudges/settings', { ...defaultNudgeSettings, channels: { email: true, push: false, call: false } })).status).toBe(200);
    const run = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    const sent = await eventually(async () => (await runsOf(http)).find((r) => r.id === run.json.runId && r.status !== 'queued'), 20_000);
    expect(sent).toMatchObject({ status: 'sent', channels: ['app', 'email'], reason: null });
    expect(box.sentMail).toHaveLength(1);
    const mail = box.sentMail[0]!;
    expect(mail.to).toEqual([address]);
    expect(mail.subject).toBe(`Weekly review: ${new Date().toISOString().slice(0, 10)}`);
    expect(mail.contentType.toLowerCase()).toBe('html');
    expect(mail.body).toContain(`${server.url}/app?chat=${sent.chatId}`);
    expect(mail.body).toContain(nudgesTexts.reviewNoGoals);
    const link = /href="([^"]*\/api\/nudges\/unsubscribe\?token=[^"]+)"/.exec(mail.body)?.[1];
    expect(link).toBeTruthy();
    const unsubscribeUrl = link!.replace(/&amp;/g, '&');
    // RFC 8058: the mail (sent as MIME, for Graph takes no other headers) names the one-click POST
    // in its headers, at the same signed link; its plain-text part carries the links too.
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const oneClick = /^<(https?:\/\/[^>\s]+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1];
    expect(oneClick).toBe(unsubscribeUrl);
    expect(mail.text).toContain(`${server.url}/app?chat=${sent.chatId}`);
    expect(mail.text).toContain(unsubscribeUrl);
    expect(mail.text).not.toContain('<');

    // A changed token does nothing.
    const forged = await new HttpClient(server.url).get(unsubscribeUrl.slice(server.url.length).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
    expect(forged.status).toBe(400);
    expect(forged.text).toContain(nudgesTexts.unsubscribeInvalidTitle);
    expect((await http.get('/api/nudges/settings')).json.weeklyReview.enabled).toBe(true);

    // No cookie, no sign-in. A GET (a mail scanner following the link) only shows a page with a
    // button; it changes nothing.
    const shown = await fetch(unsubscribeUrl);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toMatch(/text\/html/);
    const confirm = await shown.text();
    expect(confirm).toContain(nudgesTexts.unsubscribeConfirmTitle);
    expect(confirm).toContain(`<button type="submit">${nudgesTexts.unsubscribeButton('Weekly review')}</button>`);
    expect(confirm).toMatch(/<form method="post" action="\/api\/nudges\/unsubscribe\?token=[^"]+">/);
    expect((await http.get('/api/nudges/settings')).json.weeklyReview.enabled).toBe(true);
    // A mail client's RFC 8058 one-click POST to the header's link (as the page's button does)
    // turns the weekly review off and says so.
    const res = await fetch(oneClick!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const text = await res.text();
    expect(text).toContain(nudgesTexts.unsubscribedTitle);
    expect(text).toContain(nudgesTexts.unsubscribedBody('Weekly review'));
    const after = (await http.get('/api/nudges/settings')).json;
    expect(after.weeklyReview.enabled).toBe(false);
    expect(after.channels.email).toBe(true);
    expect(after.nextRun).toBeNull();
  });

  it('writes the mail as HTML: text escaped, bold kept, app links made absolute', () => {
    const html = nudgeEmailHtml('**Who** <b>x</b>\n[Prepare or rehearse it](/app?chat=7)', 'https://coach.example/app?chat=9', 'https://coach.example/api/nudges/unsubscribe?token=t', 'meeting_brief', 'https://coach.example');
    expect(html).toContain('<strong>Who</strong> &lt;b&gt;x&lt;/b&gt;');
    expect(html).toContain('<a href="https://coach.example/app?chat=7">Prepare or rehearse it</a>');
    expect(html).toContain('<a href="https://coach.example/app?chat=9">');
    expect(html).toContain(`>${nudgesTexts.emailUnsubscribe('Meeting brief')}</a>`);
  });

  it('keeps the nudge in the app and says why when no mailbox is connected', async () => {
    const { http } = await newUser('nomail');
    await http.put('/api/nudges/settings', { ...defaultNudgeSettings, channels: { email: true, push: false, call: false } });
    const run = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    const sent = await eventually(async () => (await runsOf(http)).find((r) => r.id === run.json.runId && r.status !== 'queued'), 20_000);
    expect(sent).toMatchObject({ status: 'sent', channels: ['app'], reason: nudgesTexts.reasonMailboxReconnect, chatId: expect.any(Number) });
  });
});

describe('web push', () => {
  let push: FakePushService;
  beforeAll(async () => {
    push = await startFakePushService();
  });
  afterAll(async () => {
    await push?.close();
  });

  it('gives the VAPID key kept in DATA_DIR, takes subscriptions (201), pushes an encrypted nudge, and drops a subscription the service says is gone', async () => {
    const { http } = await newUser('push');
    const key = await http.get('/api/push/key');
    expect(key.status).toBe(200);
    const kept = JSON.parse(fs.readFileSync(path.join(database.dataDir, 'vapid-keys.json'), 'utf8'));
    expect(key.json).toEqual({ publicKey: kept.publicKey });
    expect(key.json.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);

    const bad = await http.post('/api/push/subscriptions', { endpoint: 'http://push.example/x', keys: { p256dh: 'abc', auth: 'def' } });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('endpoint');
    const badKey = await http.post('/api/push/subscriptions', { endpoint: 'https://push.example/x', keys: { p256dh: 'not base64!', auth: 'abcdefghijkl' } });
    expect(badKey.status).toBe(400);
    expect(badKey.json.message).toContain('keys.p256dh');

    const browser = push.subscribe();
    const created = await http.post('/api/push/subscriptions', browser);
    expect(created.status).toBe(201);
    expect((await http.put('/api/nudges/settings', { ...defaultNudgeSettings, channels: { email: false, push: true, call: false } })).status).toBe(200);
    const run = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    const sent = await eventually(async () => (await runsOf(http)).find((r) => r.id === run.json.runId && r.status !== 'queued'), 20_000);
    expect(sent).toMatchObject({ status: 'sent', channels: ['app', 'push'], reason: null });
    expect(push.refused).toEqual([]);
    const delivered = push.received.filter((p) => p.endpoint === browser.endpoint);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.vapidPublicKey).toBe(key.json.publicKey);
    // The push says the review's first line: its focus.
    expect(delivered[0]!.payload).toEqual({ title: `Weekly review: ${new Date().toISOString().slice(0, 10)}`, body: nudgesTexts.reviewFocusLine(nudgesTexts.focusDefault), url: `/app?chat=${sent.chatId}` });

    // The browser's subscription expired: the service answers 410 and the app forgets it.
    push.gone(browser.endpoint, 410);
    const again = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    const second = await eventually(async () => (await runsOf(http)).find((r) => r.id === again.json.runId && r.status !== 'queued'), 20_000);
    expect(second).toMatchObject({ status: 'sent', channels: ['app'], reason: nudgesTexts.reasonNoPushSubscription });
    expect(await server.deps.orm.em.fork().count(PushSubscription, { endpoint: browser.endpoint })).toBe(0);
  });

  it('removes a subscription with DELETE, only the user own', async () => {
    const a = await newUser('push_a');
    const b = await newUser('push_b');
    const browser = push.subscribe();
    expect((await a.http.post('/api/push/subscriptions', browser)).status).toBe(201);
    expect((await b.http.request('DELETE', '/api/push/subscriptions', { endpoint: browser.endpoint })).status).toBe(404);
    expect((await a.http.request('DELETE', '/api/push/subscriptions', { endpoint: browser.endpoint })).status).toBe(204);
    expect((await a.http.request('DELETE', '/api/push/subscriptions', { endpoint: browser.endpoint })).status).toBe(404);
  });

  it('takes VAPID keys from configuration, both or neither, and otherwise generates a pair once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vapid-'));
    try {
      const pair = webpush.generateVAPIDKeys();
      const configured = loadConfig({ DATA_DIR: dir, VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: 'https://coach.example.com' });
      expect(vapidKeys(configured)).toEqual({ ...pair, subject: 'https://coach.example.com' });
      expect(fs.existsSync(path.join(dir, 'vapid-keys.json'))).toBe(false);
      expect(() => loadConfig({ DATA_DIR: dir, VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(/set both or neither/);
      expect(() => loadConfig({ DATA_DIR: dir, VAPID_SUBJECT: 'coach@example.com' })).toThrow(/VAPID_SUBJECT/);
      const generated = vapidKeys(loadConfig({ DATA_DIR: dir }));
      expect(generated.subject).toBe('mailto:ai-coach@localhost');
      expect(vapidKeys(loadConfig({ DATA_DIR: dir }))).toEqual(generated);
      expect(fs.statSync(path.join(dir, 'vapid-keys.json')).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A week of 6 goals (two behind, one at risk, three on track, five with check-ins this week) and
 * 8 meetings with others (5 of a recurring 'Design crit', 3 one-offs) in the user's calendar.
 */
async function seedBusyWeek(target: TestServer, http: HttpClient, userId: number, token: string, mail: string) {
  const box = graph.addMailbox({ tokens: [token], displayName: 'Busy User', mail });
  expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_calendar' })).status).toBe(200);
  const dana = { name: 'Dana Fox', email: 'dana@contoso.example', response: 'accepted' as const };
  box.addEvents([
    { subject: 'Design crit', start: inHours(20), end: inHours(21), attendees: [dana], recurrence: { type: 'daily', count: 5 } },
    { subject: 'Pricing decision with Dana', start: inHours(30), end: inHours(31), attendees: [dana] },
    { subject: 'Vendor contract review', start: inHours(50), end: inHours(51), attendees: [{ name: 'Sam Lee', email: 'sam@contoso.example', response: 'accepted' }] },
    { subject: 'Board prep with Elena', start: inHours(70), end: inHours(71), attendees: [{ name: 'Elena Rossi', email: 'elena@contoso.example', response: 'accepted' }] },
  ]);
  // [title, value of 10 now] on goals half-way through their time: 50% expected.
  const goals: Array<[string, number | null]> = [
    ['Cut cloud spend', null],
    ['Ship the mobile app', 2],
    ['Grow the partner pipeline', 3.5],
    ['Hire two engineers', 5],
    ['Improve onboarding NPS', 6],
    ['Write the security policy', 4.5],
  ];
  const dueDate = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  for (const [title, value] of goals) {
    const goal = await http.post('/api/goals', { title, framework: 'OKR', dueDate, keyResults: [{ title: `${title}: result`, start: 0, target: 10 }] });
    expect(goal.status).toBe(201);
    if (value !== null) expect((await http.post(`/api/goals/${goal.json.id}/check-ins`, { keyResultId: goal.json.keyResults[0].id, value })).status).toBe(201);
  }
  await target.deps.orm.em.fork().nativeUpdate(Goal, { owner: userId }, { createdAt: new Date(Date.now() - 60 * 86_400_000) });
}

async function runReview(http: HttpClient): Promise<{ run: { id: number; status: string; chatId: number | null; channels: string[]; reason: string | null }; content: string }> {
  const started = await http.post('/api/nudges/run', { kind: 'weekly_review' });
  expect(started.status).toBe(202);
  const run = await eventually(async () => (await runsOf(http)).find((r) => r.id === started.json.runId && r.status !== 'queued'), 30_000);
  expect(run.status).toBe('sent');
  return { run, content: (await firstMessage(http, run.chatId!)).content };
}

/** The shape every weekly review keeps, whoever wrote it. */
function expectReviewShape(content: string, focusLine: RegExp | string) {
  const lines = filledLines(content);
  expect(lines.length).toBeLessThanOrEqual(8);
  if (typeof focusLine === 'string') expect(lines[0]).toBe(focusLine);
  else expect(lines[0]).toMatch(focusLine);
  expect(lines.at(-1)).toMatch(/\?$/);
  expect(content.match(/\?/g)).toHaveLength(1);
  return lines;
}

describe('the weekly review worth reading (offline template)', () => {
  it('puts the focus first, lists only goals behind and meetings not routine, acknowledges progress and ends with one question, in at most 8 lines', async () => {
    const { http, user } = await newUser('busy');
    await seedBusyWeek(server, http, user.id, `busy-token-${users}`, `busy${users}@contoso.example`);
    const { content } = await runReview(http);
    const lines = expectReviewShape(content, nudgesTexts.reviewFocusLine(nudgesTexts.focusGoal('Cut cloud spend', 'behind')));
    expect(lines).toEqual([
      nudgesTexts.reviewFocusLine(nudgesTexts.focusGoal('Cut cloud spend', 'behind')),
      '- “Ship the mobile app” is behind: 20% done, 50% expected by now.',
      '- “Grow the partner pipeline” is at risk: 35% done, 50% expected by now.',
      expect.stringMatching(/^- Prepare “Pricing decision with Dana”, .+ with Dana Fox\.$/),
      expect.stringMatching(/^- Prepare “Vendor contract review”, .+ with Sam Lee\.$/),
      'Progress: 5 check-ins this week on 5 goals; “Hire two engineers”, “Improve onboarding NPS” and “Write the security policy” are on track.',
      nudgesTexts.questionGoal('Cut cloud spend'),
    ]);
    // Recurring meetings are routine: never 'to prepare'; no 'no check-in' line for every goal.
    expect(content).not.toContain('Design crit');
    expect(content).not.toContain('no check-in');
  });
});

describe('sensitive memories never leave the app', () => {
  let push: FakePushService;
  beforeAll(async () => {
    push = await startFakePushService();
  });
  afterAll(async () => {
    await push?.close();
  });

  it('keeps them out of the mailed and pushed weekly review and meeting brief', async () => {
    const { http } = await newUser('private');
    const token = `private-token-${users}`;
    const address = `private${users}@contoso.example`;
    const box = graph.addMailbox({ tokens: [token], displayName: 'Private User', mail: address });
    for (const service of ['microsoft_calendar', 'microsoft_email']) expect((await http.post('/api/auth/microsoft/manual-token', { token, service })).status).toBe(200);
    box.addEvents([{ subject: 'Quarterly planning', start: inHours(3), end: inHours(4), attendees: [{ name: 'Sam Lee', email: 'sam@contoso.example', response: 'accepted' }] }]);
    const overdue = new Date(Date.now() - 2 * 86_400_000).toISOString();
    // Written on the Memory page, so kept; the sensitive ones marked.
    const custody = await http.post('/api/memories', { text: 'Call the lawyer about the custody hearing', kind: 'commitment', dueAt: new Date(Date.now() - 3 * 86_400_000).toISOString() });
    expect(custody.json).toMatchObject({ sensitive: true });
    expect((await http.post('/api/memories', { text: 'Send the board deck to Priya', kind: 'commitment', dueAt: overdue })).json).toMatchObject({ sensitive: false });
    expect((await http.post('/api/memories', { text: 'Sam Lee is going through chemo', kind: 'person' })).json).toMatchObject({ sensitive: true });
    expect((await http.post('/api/memories', { text: 'Sam Lee prefers data before opinions', kind: 'person' })).json).toMatchObject({ sensitive: false });
    const browser = push.subscribe();
    expect((await http.post('/api/push/subscriptions', browser)).status).toBe(201);
    expect((await http.put('/api/nudges/settings', { ...defaultNudgeSettings, channels: { email: true, push: true, call: false } })).status).toBe(200);

    const { run, content } = await runReview(http);
    expect(run.channels).toEqual(['app', 'email', 'push']);
    expect(content).toContain('Send the board deck to Priya');
    const review = box.sentMail.at(-1)!;
    expect(review.body).toContain('Send the board deck to Priya');
    const reviewPush = push.received.filter((p) => p.endpoint === browser.endpoint).at(-1)!;
    for (const text of [content, review.body, JSON.stringify(reviewPush.payload)]) {
      expect(text).not.toContain('custody');
      expect(text).not.toContain('lawyer');
    }

    const brief = await http.post('/api/nudges/run', { kind: 'meeting_brief' });
    const briefRun = await eventually(async () => (await runsOf(http)).find((r) => r.id === brief.json.runId && r.status !== 'queued'), 30_000);
    expect(briefRun).toMatchObject({ status: 'sent', channels: ['app', 'email', 'push'] });
    const briefContent = (await firstMessage(http, briefRun.chatId!)).content;
    expect(briefContent).toContain('- Sam Lee: Sam Lee prefers data before opinions');
    const briefMail = box.sentMail.at(-1)!;
    expect(briefMail.subject).toBe(nudgesTexts.briefTitle('Quarterly planning'));
    expect(briefMail.body).toContain('prefers data before opinions');
    const briefPush = push.received.filter((p) => p.endpoint === browser.endpoint).at(-1)!;
    for (const text of [briefContent, briefMail.body, JSON.stringify(briefPush.payload)]) expect(text).not.toContain('chemo');
  });
});

describe('the weekly review written by the model (fake model)', () => {
  let fake: FakeOpenAI;
  let modelServer: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    modelServer = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, OPENAI_API_KEY: 'sk-test-review', OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'coach-model' });
  });
  afterAll(async () => {
    await modelServer?.stop();
    await fake?.close();
  });
  const modelUser = async (prefix: string) => signUp(modelServer.url, `${prefix}_${++users}_${Date.now() % 100000}`);
  const reviewCalls = () => fake.requests.filter((r) => !r.body.response_format && String(r.body.messages?.[0]?.content ?? '').includes('weekly review'));
  const withOverdueCommitment = async (http: HttpClient) => {
    expect((await http.post('/api/memories', { text: 'Send the board deck to Priya', kind: 'commitment', dueAt: new Date(Date.now() - 2 * 86_400_000).toISOString() })).status).toBe(201);
    expect((await http.post('/api/memories', { text: 'Call the lawyer about the custody hearing', kind: 'commitment', dueAt: new Date(Date.now() - 3 * 86_400_000).toISOString() })).status).toBe(201);
  };
  const focusLine = nudgesTexts.reviewFocusLine(nudgesTexts.focusCommitment('Send the board deck to Priya'));

  it('writes it through the coach model from the typed facts, none of them sensitive, and keeps its words when in shape', async () => {
    fake.reset();
    const written = [
      'Your focus this week: close the loop on “Send the board deck to Priya”, two days overdue.',
      '',
      '- Nothing else is behind: a clear runway.',
      '',
      'Progress: you kept your goals list short, which helps.',
      '',
      'What would make sending the deck to Priya easy by Wednesday?',
    ].join('\n');
    fake.behave({ reply: () => written });
    const { http } = await modelUser('model_review');
    await withOverdueCommitment(http);
    const { content } = await runReview(http);
    expect(content).toBe(written);
    const [call] = reviewCalls();
    expect(call!.body.model).toBe('coach-model');
    const prompt = call!.body.messages!.map((m) => String(m.content)).join('\n');
    expect(prompt).toContain('Send the board deck to Priya');
    expect(prompt).toContain('at most 8 lines');
    expect(prompt).not.toContain('custody');
  });

  it('holds the model to the shape with 6 goals and 8 meetings: cut to 8 lines, the question kept last', async () => {
    fake.reset();
    const dump = [
      'Your focus this week: move “Cut cloud spend” forward, it is behind.',
      ...['Cut cloud spend', 'Ship the mobile app', 'Grow the partner pipeline', 'Hire two engineers', 'Improve onboarding NPS', 'Write the security policy'].map((g) => `- ${g}: see the numbers.`),
      ...Array.from({ length: 8 }, (_, i) => `- Meeting ${i + 1} without prep.`),
      'Progress: 5 check-ins this week.',
      'What is one step that would move “Cut cloud spend” forward this week?',
      'Have a good week!',
    ].join('\n');
    fake.behave({ reply: () => dump });
    const { http, user } = await modelUser('model_busy');
    await seedBusyWeek(modelServer, http, user.id, `model-busy-token-${users}`, `modelbusy${users}@contoso.example`);
    const { content } = await runReview(http);
    const lines = expectReviewShape(content, 'Your focus this week: move “Cut cloud spend” forward, it is behind.');
    expect(lines).toHaveLength(8);
    expect(lines.at(-1)).toBe('What is one step that would move “Cut cloud spend” forward this week?');
    expect(content).not.toContain('Have a good week');
    expect(reviewCalls()).toHaveLength(1);
  });

  it.each([
    ['no question at the end', 'Your focus this week: “Send the board deck to Priya”.\nProgress: fine.'],
    ['two questions', 'Your focus this week: “Send the board deck to Priya”.\nIs it late?\nWhat will you do?'],
    ['the focus not first', 'Here is your weekly review.\nYour focus this week: “Send the board deck to Priya”.\nWhat will you do?'],
  ])('falls back to the template when the model’s review has %s', async (_case, reply) => {
    fake.reset();
    fake.behave({ reply: () => reply });
    const { http } = await modelUser('model_shape');
    await withOverdueCommitment(http);
    const { content } = await runReview(http);
    expect(reviewCalls()).toHaveLength(1);
    const lines = expectReviewShape(content, focusLine);
    expect(lines.at(-1)).toBe(nudgesTexts.questionCommitment('Send the board deck to Priya'));
  });

  it('falls back to the template when the model fails', async () => {
    fake.reset();
    fake.behave({ status: 500 });
    const { http } = await modelUser('model_down');
    await withOverdueCommitment(http);
    const { content } = await runReview(http);
    expect(reviewCalls().length).toBeGreaterThanOrEqual(1);
    expectReviewShape(content, focusLine);
  });
});

describe('scheduled runs on a clock the test moves', () => {
  const em = () => server.deps.orm.em.fork();
  const scheduled = async (userId: number) => em().find(NudgeRun, { owner: userId, trigger: 'scheduled' }, { orderBy: { id: 'asc' } });

  it('waits for the end of quiet hours, then sends, and plans the next week', async () => {
    // Monday 2026-03-23, 06:00 in Paris: the review is planned for 21:00, inside quiet hours.
    await setClock(new Date('2026-03-23T05:00:00Z'));
    const { http, user } = await newUser('quiet');
    await setTimeZone(http, 'Europe/Paris');
    const saved = await http.put('/api/nudges/settings', { ...defaultNudgeSettings, weeklyReview: { enabled: true, day: 'mon', time: '21:00' } });
    expect(saved.json.nextRun.at).toBe('2026-03-23T20:00:00.000Z');
    await setClock(new Date('2026-03-23T20:00:00Z'));
    await server.deps.nudges.tick();
    const [waiting] = await scheduled(user.id);
    expect(waiting).toMatchObject({ status: 'queued', reason: nudgesTexts.reasonQuietHours('2026-03-24 07:00 (Europe/Paris)') });
    expect(waiting!.dueAt.toISOString()).toBe('2026-03-24T06:00:00.000Z');
    // Still quiet: nothing claimed.
    await setClock(new Date('2026-03-24T05:59:00Z'));
    await server.deps.nudges.tick();
    expect((await scheduled(user.id))[0]!.status).toBe('queued');
    await setClock(new Date('2026-03-24T06:00:00Z'));
    await server.deps.nudges.tick();
    const runs = await scheduled(user.id);
    expect(runs[0]).toMatchObject({ status: 'sent' });
    expect(runs[0]!.chat).toBeTruthy();
    // The next one: Monday 2026-03-30 at 21:00 Paris summer time.
    expect(runs[1]).toMatchObject({ status: 'queued' });
    expect(runs[1]!.dueAt.toISOString()).toBe('2026-03-30T19:00:00.000Z');
  });

  it('skips a scheduled run past the weekly cap, with that reason', async () => {
    await setClock(new Date('2026-04-06T06:00:00Z')); // Monday 08:00 in Paris
    const { http, user } = await newUser('cap');
    await setTimeZone(http, 'Europe/Paris');
    await http.put('/api/nudges/settings', { ...defaultNudgeSettings, maxPerWeek: 1 });
    const manual = await http.post('/api/nudges/run', { kind: 'weekly_review' });
    await eventually(async () => (await runsOf(http)).find((r) => r.id === manual.json.runId && r.status === 'sent'), 20_000);
    await setClock(new Date('2026-04-06T06:30:00Z')); // 08:30 in Paris: the planned review
    await server.deps.nudges.tick();
    const [capped] = await scheduled(user.id);
    expect(capped).toMatchObject({ status: 'skipped', reason: nudgesTexts.reasonWeeklyCap(1) });
    expect(capped!.chat).toBeFalsy();
  });

  it('retries a failed delivery with back-off', async () => {
    await setClock(new Date('2026-04-13T05:00:00Z'));
    const { http, user } = await newUser('retry');
    const token = `retry-token-${users}`;
    graph.addMailbox({ tokens: [token], displayName: 'Retry User', mail: `retry${users}@contoso.example` });
    expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_calendar' })).status).toBe(200);
    await http.put('/api/nudges/settings', { ...defaultNudgeSettings, weeklyReview: { enabled: true, day: 'mon', time: '09:00' } });
    graph.throttle({ status: 503, times: 1000, retryAfterSeconds: 0 });
    await setClock(new Date('2026-04-13T09:00:00Z'));
    await server.deps.nudges.tick();
    const [first] = await scheduled(user.id);
    expect(first).toMatchObject({ status: 'queued', attempts: 1 });
    expect(first!.reason).toMatch(/^Delivery failed \(attempt 1\), retrying/);
    // pg-boss's back-off: 1 to 2 minutes after the first attempt (its jitter), then 2 to 4.
    const firstWait = first!.dueAt.getTime() - Date.parse('2026-04-13T09:00:00Z');
    expect(firstWait).toBeGreaterThanOrEqual(60_000);
    expect(firstWait).toBeLessThanOrEqual(121_000); // rounded up to the second
    // Not before its time.
    await setClock(first!.dueAt.getTime() - 1_000);
    expect(await server.deps.nudges.tick()).toBe(0);
    await setClock(first!.dueAt);
    await server.deps.nudges.tick();
    const [second] = await scheduled(user.id);
    expect(second).toMatchObject({ status: 'queued', attempts: 2 });
    const secondWait = second!.dueAt.getTime() - first!.dueAt.getTime();
    expect(secondWait).toBeGreaterThanOrEqual(120_000); // twice the wait
    expect(secondWait).toBeLessThanOrEqual(241_000);
    graph.throttle({ status: 503, times: 0 });
    await setClock(second!.dueAt);
    await server.deps.nudges.tick();
    expect((await scheduled(user.id))[0]).toMatchObject({ status: 'sent', reason: null, attempts: 3 });
  });

  it('plans one brief per meeting with others, due its lead time ahead, and sends it then', async () => {
    const start = new Date(Math.floor((Date.now() + 2 * hour) / 60_000) * 60_000);
    await setClock(new Date(start.getTime() - 70 * 60_000));
    const { http, user } = await newUser('sched_brief');
    const token = `sched-brief-token-${users}`;
    const box = graph.addMailbox({ tokens: [token], displayName: 'Brief User', mail: `schedbrief${users}@contoso.example` });
    expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_calendar' })).status).toBe(200);
    box.addEvents([
      { subject: 'Roadmap review', start: start.toISOString(), end: new Date(start.getTime() + hour).toISOString(), attendees: [{ name: 'Ari Moss', email: 'ari@contoso.example', response: 'accepted' }] },
      { subject: 'Alone time', start: start.toISOString(), end: new Date(start.getTime() + hour).toISOString() },
    ]);
    // No quiet hours (a start equal to the end), weekly review off: only the brief is planned.
    await http.put('/api/nudges/settings', { ...defaultNudgeSettings, weeklyReview: { enabled: false, day: 'mon', time: '08:30' }, meetingBrief: { enabled: true, minutesBefore: 60 }, quietHours: { start: '00:00', end: '00:00' } });
    expect(await server.deps.nudges.planBriefs()).toBe(1);
    expect(await server.deps.nudges.planBriefs()).toBe(0); // planned once, however often planning runs
    const [planned] = await scheduled(user.id);
    expect(planned).toMatchObject({ kind: 'meeting_brief', status: 'queued' });
    expect(planned!.dueAt.toISOString()).toBe(new Date(start.getTime() - 60 * 60_000).toISOString());
    await server.deps.nudges.tick();
    expect((await scheduled(user.id))[0]!.status).toBe('queued'); // not yet due
    await setClock(new Date(start.getTime() - 60 * 60_000));
    await server.deps.nudges.tick();
    const [sent] = await scheduled(user.id);
    expect(sent).toMatchObject({ status: 'sent' });
    const content = (await firstMessage(http, sent!.chat!.id)).content;
    expect(content).toContain('Roadmap review');
    expect(content).toContain('- Ari Moss');
  });

  it('queues a job for a queued run that has none (planned before the queue held them, or lost in a crash)', async () => {
    await setClock(new Date('2026-04-27T09:00:00Z'));
    const { http, user } = await newUser('orphan');
    await http.put('/api/nudges/settings', { ...defaultNudgeSettings, weeklyReview: { enabled: false, day: 'mon', time: '08:30' } });
    // A run row written without its job.
    const [{ id: runId }] = await em().getConnection().execute(
      `insert into "nudge_run" ("owner_id", "kind", "status", "trigger", "channels", "due_at", "attempts", "created_at", "updated_at") values (?, 'weekly_review', 'queued', 'manual', '["app"]'::jsonb, ?::timestamptz, 0, now(), now()) returning "id"`,
      [user.id, '2026-04-27T08:00:00Z'],
    );
    await server.deps.nudges.tick();
    expect((await runsOf(http))[0]).toMatchObject({ id: runId, status: 'queued' });
    await server.deps.nudges.planMissing();
    await server.deps.nudges.planMissing(); // still one job for it
    const jobs = await em().getConnection().execute(`select "state" from "pgboss"."job" where "singleton_key" = ?`, [`run-${runId}`]);
    expect(jobs).toEqual([{ state: 'created' }]);
    await server.deps.nudges.tick();
    expect((await runsOf(http))[0]).toMatchObject({ id: runId, status: 'sent' });
  });

  it('delivers after a restart a run that came due while the server was down, and waits for the end of quiet hours', async () => {
    await setClock(new Date('2026-04-20T05:00:00Z'));
    const { http, user } = await newUser('restart');
    await http.put('/api/nudges/settings', { ...defaultNudgeSettings, weeklyReview: { enabled: true, day: 'mon', time: '10:00' } });
    // Due at 19:00 in Tokyo (10:00 UTC), but the server is back at 20:00 there: quiet hours.
    const tokyo = await newUser('restart_quiet');
    await setTimeZone(tokyo.http, 'Asia/Tokyo');
    await tokyo.http.put('/api/nudges/settings', { ...defaultNudgeSettings, weeklyReview: { enabled: true, day: 'mon', time: '19:00' } });
    await server.stop();
    await setClock(new Date('2026-04-20T11:00:00Z'));
    server = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, WEB_PUSH_ALLOWED_HOSTS: '127.0.0.1' }, database, { queueClock });
    await server.deps.nudges.firstRun;
    const [run] = await scheduled(user.id);
    expect(run).toMatchObject({ status: 'sent' });
    expect(run!.chat).toBeTruthy();
    const [waiting] = await scheduled(tokyo.user.id);
    expect(waiting).toMatchObject({ status: 'queued', reason: nudgesTexts.reasonQuietHours('2026-04-21 07:00 (Asia/Tokyo)') });
    await setClock(new Date('2026-04-20T21:59:00Z'));
    await server.deps.nudges.tick();
    expect((await scheduled(tokyo.user.id))[0]).toMatchObject({ status: 'queued' });
    await setClock(new Date('2026-04-20T22:00:00Z'));
    await server.deps.nudges.tick();
    expect((await scheduled(tokyo.user.id))[0]).toMatchObject({ status: 'sent' });
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('two instances on one PostgreSQL', () => {
  let shared: FreshDatabase;
  let a: TestServer;
  let b: TestServer;
  const clock = new TestClock(new Date('2026-05-04T06:00:00Z'));
  beforeAll(async () => {
    shared = await freshDatabase();
    a = await startTestServer({ DEMO_MODE: 'false' }, shared, { queueClock: clock });
    b = await startTestServer({ DEMO_MODE: 'false' }, shared, { queueClock: clock });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await shared?.dispose();
  });

  it('delivers each due run once', async () => {
    const people = await Promise.all([1, 2, 3, 4, 5].map((i) => signUp(a.url, `twice_${i}_${Date.now() % 100000}`)));
    for (const { http } of people) expect((await http.put('/api/nudges/settings', { ...defaultNudgeSettings, weeklyReview: { enabled: true, day: 'mon', time: '09:00' } })).status).toBe(200);
    await clock.setTime(new Date('2026-05-04T09:00:00Z'));
    const [fromA, fromB] = await Promise.all([a.deps.nudges.tick(), b.deps.nudges.tick()]);
    expect(fromA + fromB).toBe(5);
    for (const { http } of people) {
      const runs = (await http.get('/api/nudges/runs')).json.runs as Array<{ status: string; trigger: string }>;
      expect(runs.filter((r) => r.status === 'sent')).toHaveLength(1);
      const chats = (await http.get('/api/chats')).json as Array<{ title: string }>;
      expect(chats.filter((c) => c.title === 'Weekly review: 2026-05-04')).toHaveLength(1);
    }
  });
});

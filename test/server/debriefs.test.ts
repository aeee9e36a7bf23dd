import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestClock } from 'pg-boss';
import { Debrief } from '../../src/server/db/entities/Debrief.js';
import { tickAutoDebriefs } from '../../src/server/features/debriefs/autoDebriefs.js';
import { defaultNudgeSettings } from '../../src/shared/schemas/nudges.js';
import { debriefTexts } from '../../src/shared/texts/debriefs.js';
import { nudgesTexts } from '../../src/shared/texts/nudges.js';
import { startFakeEntra } from '../fakes/entra/index.js';
import { startFakeGraph, type FakeGraph, type FakeMailbox } from '../fakes/graph/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// Debriefs of Teams meetings through the real server, against the Graph fake's online-meeting and
// transcript paths: the report computed exactly from a planted transcript, the agenda covered, the
// coach's moments quoting the user, the 4xx cases, isolation, API key scopes, 'Rehearse this', the
// rehearsed behaviour seen in the next meeting with that person, export and account deletion.

vi.setConfig({ testTimeout: 60_000 });

let graph: FakeGraph;
let server: TestServer;

const minute = 60_000;
const minutesFromNow = (m: number) => new Date(Math.floor((Date.now() + m * minute) / minute) * minute).toISOString();

beforeAll(async () => {
  graph = await startFakeGraph();
  server = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, MICROSOFT_MEETING_DEBRIEFS: 'on' });
});
afterAll(async () => {
  await server?.stop();
  await graph?.close();
});
beforeEach(() => graph.reset());

const sam = { name: 'Sam Lee', email: 'sam@contoso.example', response: 'accepted' as const };
const kim = { name: 'Kim Park', email: 'kim@contoso.example', response: 'accepted' as const };

/** A user signed up as 'User {name}' whose Microsoft account is 'Dana Reyes': the transcript names the account. */
async function connectedUser(name: string): Promise<{ http: HttpClient; box: FakeMailbox; user: { id: number } }> {
  const token = `calendar-token-of-${name}`;
  const box = graph.addMailbox({ tokens: [token], displayName: 'Dana Reyes', mail: `${name}@contoso.example` });
  const { http, user } = await signUp(server.url, name, `User ${name}`);
  expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_calendar' })).status).toBe(200);
  return { http, box, user };
}

// Hand-counted: Dana speaks 10 + 12 + 20 + 10 = 52 s of 102 s spoken (0.51); Sam 30 s (0.294) in two
// turns, Kim 20 s (0.196) in one. Dana's turns: 0:00 (10 s), 0:28 to 1:00 (two cues, 32 s, begun
// while Sam's cue ran to 0:30: one interruption), 1:20 (10 s). Questions: the first and the last
// turn. Fillers: 'Um', 'basically'. Words: 12 + 17 + 10 = 39 in 52 s = 45 a minute.
const plantedTranscript = `WEBVTT

1
00:00:00.000 --> 00:00:10.000
<v Dana Reyes>Um, thanks for joining. What would make this review useful for you?</v>

2
00:00:10.000 --> 00:00:30.000
<v Sam Lee>I want to see the budget numbers and the hiring plan.</v>

3
00:00:28.000 --> 00:00:40.000
<v Dana Reyes>Sure, the budget is ready.</v>

4
00:00:40.000 --> 00:01:00.000
<v Dana Reyes>We spend less than planned on tools, basically because the renewals moved.</v>

5
00:01:00.000 --> 00:01:20.000
<v Kim Park>But I'm not sure the hiring plan is realistic.</v>

6
00:01:20.000 --> 00:01:30.000
<v Dana Reyes>That's fair. Can you send me your numbers by Friday?</v>

7
00:01:30.000 --> 00:01:40.000
<v Sam Lee>Yes, by Friday.</v>
`;

// The next meeting with Sam: Dana lets him finish (no cue of hers begins inside his).
const secondTranscript = `WEBVTT

00:00:00.000 --> 00:00:20.000
<v Sam Lee>The numbers look fine to me.</v>

00:00:20.000 --> 00:00:30.000
<v Dana Reyes>Good. Can we agree you send the final plan by Monday?</v>

00:00:30.000 --> 00:00:40.000
<v Sam Lee>Yes.</v>
`;

function endedTeamsMeeting(box: FakeMailbox, subject = 'Budget review', attendees = [sam, kim]) {
  const [id] = box.addEvents([{ subject, start: minutesFromNow(-120), end: minutesFromNow(-60), isOnline: true, attendees }]);
  return id!;
}

describe('a debrief from the transcript', () => {
  it('computes the report exactly, covers the saved agenda, and quotes the user with the time', async () => {
    const { http, box } = await connectedUser('db_report');
    const id = endedTeamsMeeting(box);
    box.addTranscript(id, plantedTranscript);
    expect((await http.post(`/api/meetings/${id}/agenda`, { text: '- Budget numbers\n- Hiring plan\n- Office move' })).status).toBe(200);

    expect(await http.get(`/api/meetings/${id}/debrief`)).toMatchObject({ status: 404, json: { message: debriefTexts.notFound } });
    graph.requests.length = 0;
    const res = await http.post(`/api/meetings/${id}/debrief`);
    expect(res.status).toBe(201);
    const { debrief } = res.json;
    expect(debrief.report).toEqual({
      durationSeconds: 100,
      you: { name: 'Dana Reyes', talkShare: 0.51, turns: 3, longestTurnSeconds: 32, questionsAsked: 2, fillerWords: { count: 2, examples: ['um', 'basically'] }, wordsPerMinute: 45, interruptions: 1 },
      speakers: [
        { name: 'Sam Lee', share: 0.294, turns: 2 },
        { name: 'Kim Park', share: 0.196, turns: 1 },
      ],
      agenda: [
        { item: 'Budget numbers', discussed: true },
        { item: 'Hiring plan', discussed: true },
        { item: 'Office move', discussed: false },
      ],
    });
    // The coach quotes Dana's own words at their time, never Sam's or Kim's.
    expect(debrief.coach.by).toBe('offline');
    expect(debrief.coach.strengths.map((s: { kind: string; at: string }) => [s.kind, s.at])).toEqual([
      ['acknowledged', '1:20'],
      ['question', '0:00'],
    ]);
    expect(debrief.coach.strengths[0].quote).toBe("That's fair. Can you send me your numbers by Friday?");
    expect(debrief.coach.strengths[1].quote).toBe('What would make this review useful for you?');
    expect(debrief.coach.moments.map((m: { kind: string; at: string; quote: string }) => [m.kind, m.at, m.quote])).toEqual([
      ['interruption', '0:28', 'Sure, the budget is ready.'],
      ['fillers', '0:00', 'Um, thanks for joining.'],
      ['talkShare', '0:28', 'Sure, the budget is ready.'],
    ]);
    expect(debrief.coach.moments[1].instead).toContain('Thanks for joining.');
    const everything = JSON.stringify(debrief.coach);
    for (const theirs of ['budget numbers and the hiring plan', 'not sure the hiring plan', 'by Friday.</v>']) expect(everything).not.toContain(theirs);

    // The Graph calls: the meeting by its join URL, its transcripts, the content as WebVTT.
    const paths = graph.requests.map((r) => r.path);
    const lookup = graph.requests.find((r) => r.path === '/v1.0/me/onlineMeetings');
    expect(lookup?.query.$filter).toMatch(/^JoinWebUrl eq 'https:\/\/teams\.microsoft\.com\/l\/meetup-join\/.+'$/);
    expect(paths.some((p) => /^\/v1\.0\/me\/onlineMeetings\/[^/]+\/transcripts$/.test(p))).toBe(true);
    expect(graph.requests.find((r) => r.path.endsWith('/content'))?.query.$format).toBe('text/vtt');
    // Nothing was posted into the meeting or sent to its attendees.
    expect(graph.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(box.sentMail).toEqual([]);

    // The debrief opened a chat of its own with the coach's message.
    expect(debrief.chatId).toEqual(expect.any(Number));
    const messages = (await http.get(`/api/chats/${debrief.chatId}/messages`)).json as Array<{ role: string; content: string }>;
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringContaining('Sure, the budget is ready.') });

    const again = await http.get(`/api/meetings/${id}/debrief`);
    expect(again).toMatchObject({ status: 200, json: { debrief: { id: debrief.id, report: debrief.report } } });
    // Asked again: recomputed into the same debrief, no second chat message.
    expect((await http.post(`/api/meetings/${id}/debrief`)).json.debrief.id).toBe(debrief.id);
    expect(((await http.get(`/api/chats/${debrief.chatId}/messages`)).json as unknown[]).length).toBe(messages.length);
  });

  it('answers a 4xx saying which: ahead, not Teams, no transcript, no permission, another user', async () => {
    const { http, box } = await connectedUser('db_refusals');
    const [ahead, offline, silent] = box.addEvents([
      { subject: 'Later', start: minutesFromNow(60), end: minutesFromNow(90), isOnline: true, attendees: [sam] },
      { subject: 'In the room', start: minutesFromNow(-90), end: minutesFromNow(-60), isOnline: false, attendees: [sam] },
      { subject: 'Untranscribed', start: minutesFromNow(-90), end: minutesFromNow(-60), isOnline: true, attendees: [sam] },
    ]);
    expect(await http.post(`/api/meetings/${ahead}/debrief`)).toMatchObject({ status: 409, json: { message: debriefTexts.stillAhead } });
    expect(await http.post(`/api/meetings/${offline}/debrief`)).toMatchObject({ status: 400, json: { message: debriefTexts.notTeams } });
    expect(await http.post(`/api/meetings/${silent}/debrief`)).toMatchObject({ status: 409, json: { message: debriefTexts.noTranscript } });
    expect(await http.post('/api/meetings/AAMkNoSuchEvent=/debrief')).toMatchObject({ status: 404 });
    expect(await http.post('/api/meetings/not%20an%20id/debrief')).toMatchObject({ status: 400 });

    const id = endedTeamsMeeting(box);
    box.addTranscript(id, plantedTranscript);
    for (const missing of ['meetings', 'transcripts'] as const) {
      box.denyTranscripts(missing);
      const refused = await http.post(`/api/meetings/${id}/debrief`);
      expect(refused).toMatchObject({ status: 403, json: { message: debriefTexts.needsPermission } });
      expect(refused.json.message).toMatch(/reconnect Microsoft Calendar/);
    }
    box.denyTranscripts(null);
    expect((await http.post(`/api/meetings/${id}/debrief`)).status).toBe(201);

    // Another user: the event is not in their calendar, the debrief not theirs.
    const other = await connectedUser('db_other');
    expect(await other.http.get(`/api/meetings/${id}/debrief`)).toMatchObject({ status: 404 });
    expect(await other.http.post(`/api/meetings/${id}/debrief`)).toMatchObject({ status: 404 });
    expect(await other.http.post(`/api/meetings/${id}/debrief/rehearse`)).toMatchObject({ status: 404 });
    expect((await other.http.get('/api/debriefs/trends')).json.points).toEqual([]);
  });

  it("posts the debrief into the meeting's prep chat, where 'How did it go?' is asked", async () => {
    const { http, box } = await connectedUser('db_prepped');
    const id = endedTeamsMeeting(box);
    box.addTranscript(id, plantedTranscript);
    const prep = await http.post(`/api/meetings/${id}/prep`);
    expect(prep.status).toBe(201);
    await server.deps.replies.settled();
    const debrief = (await http.post(`/api/meetings/${id}/debrief`)).json.debrief;
    expect(debrief.chatId).toBe(prep.json.chatId);
    const messages = (await http.get(`/api/chats/${prep.json.chatId}/messages`)).json as Array<{ role: string; content: string }>;
    expect(messages.at(-1)!.content).toContain(debriefTexts.messageHeading('Budget review'));
  });

  it('refuses a transcript that does not name the user, and a file that is not WebVTT', async () => {
    const { http, box } = await connectedUser('db_strangers');
    const id = endedTeamsMeeting(box);
    box.addTranscript(id, plantedTranscript.replaceAll('Dana Reyes', 'Someone Else'));
    expect(await http.post(`/api/meetings/${id}/debrief`)).toMatchObject({ status: 409, json: { message: debriefTexts.notInTranscript('Dana Reyes') } });
    const broken = endedTeamsMeeting(box, 'Broken');
    box.addTranscript(broken, 'this is not a transcript');
    expect(await http.post(`/api/meetings/${broken}/debrief`)).toMatchObject({ status: 409, json: { message: debriefTexts.transcriptUnreadable } });
  });

  it('reaches an API key only with calendar:read', async () => {
    const { http, box } = await connectedUser('db_keys');
    const id = endedTeamsMeeting(box);
    box.addTranscript(id, plantedTranscript);
    const chatKey = (await http.post('/api/api-keys', { name: 'chat only', scopes: ['chat'] })).json.key as string;
    const calendarKey = (await http.post('/api/api-keys', { name: 'calendar', scopes: ['calendar:read'] })).json.key as string;
    const as = (key: string) => new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${key}` } });
    expect((await as(chatKey).post(`/api/meetings/${id}/debrief`)).status).toBe(403);
    expect((await as(calendarKey).post(`/api/meetings/${id}/debrief`)).status).toBe(201);
    expect((await as(chatKey).get(`/api/meetings/${id}/debrief`)).status).toBe(403);
    expect((await as(calendarKey).get(`/api/meetings/${id}/debrief`)).status).toBe(200);
    expect((await as(chatKey).get('/api/debriefs/trends')).status).toBe(403);
  });
});

describe('the loop: rehearse a moment, then see it in the next meeting', () => {
  it('rehearses the weakest moment with the main other speaker, and checks it in the next meeting with them', async () => {
    const { http, box } = await connectedUser('db_loop');
    const first = endedTeamsMeeting(box);
    box.addTranscript(first, plantedTranscript);
    expect((await http.post(`/api/meetings/${first}/debrief`)).json.debrief.rehearsed).toBeNull();

    const rehearse = await http.post(`/api/meetings/${first}/debrief/rehearse`);
    expect(rehearse.status).toBe(201);
    expect(rehearse.json).toEqual({ id: expect.any(Number), chatId: expect.any(Number) });
    const rehearsal = (await http.get(`/api/rehearsals/${rehearse.json.id}`)).json;
    expect(rehearsal).toMatchObject({ counterpart: { name: 'Sam Lee' }, meetingId: first, difficulty: 'realistic' });
    expect(rehearsal.situation).toContain('Budget review');
    expect(rehearsal.situation).toContain('0:28');
    expect(rehearsal.situation).toContain('Sure, the budget is ready.');
    expect(rehearsal.goal).toContain('Let Sam finish');

    // The rehearsal itself: one long turn that asks for nothing; its report makes 'asked for the
    // agreement' and 'talked less' rehearsed behaviours too.
    const said = await http.post(`/api/chats/${rehearse.json.chatId}/messages`, { content: 'I wanted to go through the budget. We spend less than planned on tools because the renewals moved, the hiring plan needs two more people in the spring, and the office move is still open. On the tools side the three biggest renewals all moved into the next quarter, which is why the spend looks low now and will look high later, and on hiring the two roles are a backend engineer and a designer, both of which the team has been asking for since the summer, with the designer the more urgent of the two.' });
    expect(said.status).toBe(201);
    await server.deps.replies.settled();
    const feedback = await http.post(`/api/rehearsals/${rehearse.json.id}/feedback`);
    expect(feedback.status).toBe(200);
    expect(feedback.json.report.checks.request.status).toBe('failed');
    expect(feedback.json.report.talkRatio).toBeGreaterThan(0.5);

    // The next meetings with Sam end after the rehearsal (a rehearsal made later cannot have shaped them).
    const endingNow = (subject: string) => box.addEvents([{ subject, start: minutesFromNow(-30), end: new Date(Date.now() + 1_200).toISOString(), isOnline: true, attendees: [sam] }])[0]!;
    const second = endingNow('Budget follow-up');
    const third = endingNow('Budget close');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    box.addTranscript(second, secondTranscript);
    const next = (await http.post(`/api/meetings/${second}/debrief`)).json.debrief;
    expect(next.report.you).toMatchObject({ talkShare: 0.25, interruptions: 0, turns: 1, questionsAsked: 1 });
    // Asked for the agreement ('Can we agree you send the final plan by Monday?' names who and when),
    // talked less (0.25 of the time, with one other speaker), let Sam finish: all three seen.
    expect(next.rehearsed).toEqual({
      rehearsalId: rehearse.json.id,
      counterpart: 'Sam Lee',
      behaviours: [
        { behaviour: 'agreement', done: true, quote: 'Can we agree you send the final plan by Monday?' },
        { behaviour: 'talkLess', done: true, quote: null },
        { behaviour: 'letThemFinish', done: true, quote: null },
      ],
      share: 1,
    });

    const trends = (await http.get('/api/debriefs/trends')).json.points;
    expect(trends.map((p: { subject: string; talkShare: number; interruptions: number; rehearsedShare: number | null }) => [p.subject, p.talkShare, p.interruptions, p.rehearsedShare])).toEqual([
      ['Budget review', 0.51, 1, null],
      ['Budget follow-up', 0.25, 0, 1],
    ]);

    // A third meeting with Sam in which Dana cuts in and asks for nothing: a third of the rehearsed
    // behaviours seen (she talked less), and the trend shows it.
    box.addTranscript(third, secondTranscript.replace('00:00:20.000 --> 00:00:30.000\n<v Dana Reyes>Good. Can we agree you send the final plan by Monday?', '00:00:15.000 --> 00:00:25.000\n<v Dana Reyes>Good, thanks.'));
    const last = (await http.post(`/api/meetings/${third}/debrief`)).json.debrief;
    expect(last.report.you).toMatchObject({ interruptions: 1, talkShare: 0.25 });
    expect(last.rehearsed.behaviours.map((b: { behaviour: string; done: boolean }) => [b.behaviour, b.done])).toEqual([
      ['agreement', false],
      ['talkLess', true],
      ['letThemFinish', false],
    ]);
    expect(last.rehearsed.share).toBe(0.333);
    // A meeting with Sam that ended before the rehearsal was made: nothing rehearsed to look for.
    const earlier = endedTeamsMeeting(box, 'Budget kick-off', [sam]);
    box.addTranscript(earlier, secondTranscript);
    expect((await http.post(`/api/meetings/${earlier}/debrief`)).json.debrief.rehearsed).toBeNull();

    const recent = (await http.get('/api/debriefs/recent')).json.meetings;
    expect(recent.map((m: { id: string; debriefedAt: string | null }) => m.id)).toEqual(expect.arrayContaining([first, second]));
    expect(recent.every((m: { debriefedAt: string | null }) => m.debriefedAt)).toBe(true);
  });
});

describe('private by construction', () => {
  it('is in the export, and gone with the account', async () => {
    const { http, box, user } = await connectedUser('db_privacy');
    const id = endedTeamsMeeting(box);
    box.addTranscript(id, plantedTranscript);
    expect((await http.post(`/api/meetings/${id}/debrief`)).status).toBe(201);
    const exported = await http.post('/trpc/privacy.exportMyData', { format: 'json' });
    expect(exported.status).toBe(200);
    const data = JSON.parse(exported.json.result.data.content);
    expect(data.debriefs).toHaveLength(1);
    expect(data.debriefs[0]).toMatchObject({ eventId: id, subject: 'Budget review' });
    // What Sam and Kim said is not in it: only their share.
    expect(JSON.stringify(data.debriefs)).not.toContain('hiring plan is realistic');

    expect((await http.post('/trpc/privacy.deleteAccount', { confirmation: 'DELETE' })).status).toBe(200);
    expect(await server.deps.orm.em.fork().count(Debrief, { owner: user.id })).toBe(0);
  });
});

describe('the demo', () => {
  let demo: TestServer;
  beforeAll(async () => {
    demo = await startTestServer({ DEMO_MODE: 'true', RATE_LIMIT_GUEST_PER_HOUR: '0' });
  });
  afterAll(async () => {
    await demo?.stop();
  });

  it("debriefs yesterday's sample Teams meeting from its sample transcript, without Microsoft", async () => {
    const visitor = new HttpClient(demo.url);
    const recent = await visitor.get('/api/debriefs/recent?timeZone=UTC');
    expect(recent.status).toBe(200);
    // Yesterday's sync and the one a week before, newest first.
    expect(recent.json.meetings).toEqual([expect.objectContaining({ subject: 'Weekly team sync', sample: true, debriefedAt: null }), expect.objectContaining({ subject: 'Weekly team sync', sample: true })]);
    const id = recent.json.meetings[0].id as string;
    const weekBefore = recent.json.meetings[1].id as string;
    const res = await visitor.post(`/api/meetings/${id}/debrief`, { timeZone: 'UTC' });
    expect(res.status).toBe(201);
    const { debrief } = res.json;
    expect(debrief).toMatchObject({ sample: true, subject: 'Weekly team sync' });
    expect(debrief.report.speakers.map((s: { name: string }) => s.name)).toEqual(['Priya Shah', 'Marcus Chen', 'Tom Becker']);
    expect(debrief.report.you).toMatchObject({ interruptions: 1, questionsAsked: 3 });
    expect(debrief.coach.strengths.length).toBeGreaterThan(0);
    expect(debrief.coach.moments.map((m: { kind: string }) => m.kind)).toEqual(['interruption', 'longTurn', 'fillers']);
    // A sample meeting still ahead, and one in a room, answer as a real one would.
    expect(await visitor.post(`/api/meetings/${id.replace(/-1$/, '-0')}/debrief`, { timeZone: 'UTC' })).toMatchObject({ status: 400, json: { message: debriefTexts.notTeams } });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
    expect(await visitor.post(`/api/meetings/sample-${tomorrow}-1/debrief`, { timeZone: 'UTC' })).toMatchObject({ status: 409, json: { message: debriefTexts.stillAhead } });
    // A week before, the visitor asked no question and cut in twice: the trend shows the change.
    const before = (await visitor.post(`/api/meetings/${weekBefore}/debrief`, { timeZone: 'UTC' })).json.debrief;
    expect(before.report.you).toMatchObject({ questionsAsked: 0, interruptions: 2 });
    const points = (await visitor.get('/api/debriefs/trends')).json.points;
    expect(points.map((p: { questionsAsked: number; interruptions: number }) => [p.questionsAsked, p.interruptions])).toEqual([
      [0, 2],
      [3, 1],
    ]);
    const rehearse = await visitor.post(`/api/meetings/${id}/debrief/rehearse`, { timeZone: 'UTC' });
    expect(rehearse.status).toBe(201);
    expect((await visitor.get(`/api/rehearsals/${rehearse.json.id}`)).json.counterpart.name).toBe('Priya Shah');
  });
});

describe('debriefs turned off for the app', () => {
  it('answers 412 naming no setting a user cannot see, before asking Graph for anything', async () => {
    const off = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url });
    try {
      const token = 'calendar-token-of-db_off';
      const box = graph.addMailbox({ tokens: [token], displayName: 'Dana Reyes', mail: 'db_off@contoso.example' });
      const { http } = await signUp(off.url, 'db_off', 'User db_off');
      expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_calendar' })).status).toBe(200);
      const id = endedTeamsMeeting(box);
      box.addTranscript(id, plantedTranscript);
      graph.requests.length = 0;
      expect(await http.post(`/api/meetings/${id}/debrief`)).toMatchObject({ status: 412, json: { message: debriefTexts.debriefsOff } });
      expect(graph.requests.filter((r) => r.path.includes('onlineMeetings'))).toEqual([]);
    } finally {
      await off.stop();
    }
  });
});

describe('the permissions asked at Microsoft', () => {
  it('connecting the calendar and Sign in with Microsoft ask for OnlineMeetings.Read and OnlineMeetingTranscript.Read.All when debriefs are on', async () => {
    const entra = await startFakeEntra({ clientId: 'test-client' });
    const withSignIn = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_CLIENT_ID: 'test-client', MICROSOFT_AUTHORITY_HOST: entra.url, MICROSOFT_TENANT_ID: 'organizations', MICROSOFT_GRAPH_BASE_URL: graph.url, MICROSOFT_MEETING_DEBRIEFS: 'on' });
    try {
      const { http } = await signUp(withSignIn.url, 'db_scopes', 'User db_scopes');
      const scopesOf = (url: string) => new URL(url).searchParams.get('scope')!.split(' ');
      const calendar = await http.get(`/api/auth/microsoft/login?service=${encodeURIComponent('Microsoft Calendar')}`);
      expect(calendar.status).toBe(200);
      expect(scopesOf(calendar.json.authUrl)).toEqual(expect.arrayContaining(['Calendars.ReadWrite', 'OnlineMeetings.Read', 'OnlineMeetingTranscript.Read.All']));
      const email = await http.get(`/api/auth/microsoft/login?service=${encodeURIComponent('Microsoft Email')}`);
      expect(scopesOf(email.json.authUrl)).not.toContain('OnlineMeetingTranscript.Read.All');
      const signIn = await new HttpClient(withSignIn.url).get('/api/auth/microsoft/sign-in');
      expect(signIn.status).toBe(302);
      expect(scopesOf(signIn.headers.get('location')!)).toEqual(expect.arrayContaining(['OnlineMeetings.Read', 'OnlineMeetingTranscript.Read.All']));
    } finally {
      await withSignIn.stop();
      await entra.close();
    }
  });
});

describe('the permissions asked', () => {
  it('asks for the meetings and transcripts permissions with the calendar only when debriefs are on', async () => {
    const { microsoftScopes, signInScopes } = await import('../../src/server/providers/microsoft/identity.js');
    expect(microsoftScopes('calendar')).toEqual(['User.Read', 'Calendars.ReadWrite', 'offline_access']);
    expect(microsoftScopes('calendar', { meetingDebriefs: true })).toEqual(['User.Read', 'Calendars.ReadWrite', 'OnlineMeetings.Read', 'OnlineMeetingTranscript.Read.All', 'offline_access']);
    expect(microsoftScopes('email', { meetingDebriefs: true })).not.toContain('OnlineMeetings.Read');
    expect(signInScopes({ meetingDebriefs: true })).toEqual(expect.arrayContaining(['OnlineMeetings.Read', 'OnlineMeetingTranscript.Read.All']));
    expect(signInScopes()).not.toContain('OnlineMeetingTranscript.Read.All');
  });
});

describe('automatic debriefs, on the queue after the meeting ends', () => {
  const clock = new TestClock(new Date(Math.floor(Date.now() / 1000) * 1000));
  let auto: TestServer;
  beforeAll(async () => {
    auto = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, MICROSOFT_MEETING_DEBRIEFS: 'on' }, undefined, { queueClock: clock });
  });
  afterAll(async () => {
    await auto?.stop();
  });

  it('is off by default; turned on, asks Graph after the meeting ends, backs off while the transcript is not ready, then debriefs', async () => {
    const token = 'calendar-token-of-db_auto';
    const box = graph.addMailbox({ tokens: [token], displayName: 'Dana Reyes', mail: 'db_auto@contoso.example' });
    const { http, user } = await signUp(auto.url, 'db_auto', 'User db_auto');
    expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_calendar' })).status).toBe(200);
    expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_email' })).status).toBe(200);
    // Nudges by email, with quiet hours well away from the queue's clock (the user's time zone is UTC).
    const hourOf = (offset: number) => `${String((new Date(clock.now()).getUTCHours() + offset) % 24).padStart(2, '0')}:00`;
    expect((await http.put('/api/nudges/settings', { ...defaultNudgeSettings, channels: { email: true, push: false, call: false }, quietHours: { start: hourOf(10), end: hourOf(11) } })).status).toBe(200);
    const endsAt = Math.floor((clock.now() + 10 * minute) / minute) * minute;
    const [id] = box.addEvents([{ subject: 'Budget review', start: new Date(endsAt - 30 * minute).toISOString(), end: new Date(endsAt).toISOString(), isOnline: true, attendees: [sam, kim] }]);
    expect((await http.get('/api/debriefs/settings')).json).toEqual({ automatic: false });

    expect(await http.put('/api/debriefs/settings', { automatic: true })).toMatchObject({ status: 200, json: { automatic: true } });
    const debriefs = () => auto.deps.orm.em.fork().find(Debrief, { owner: user.id });
    const transcriptCalls = () => graph.requests.filter((r) => r.path.endsWith('/transcripts')).length;
    // Before the meeting ends (and the few minutes Teams takes): nothing is asked.
    expect(await tickAutoDebriefs(auto.deps)).toBe(0);
    await clock.setTime(endsAt + 4 * minute);
    expect(await tickAutoDebriefs(auto.deps)).toBe(0);
    // Due: the transcript is not there yet, so the job fails and waits for the queue's back-off.
    await clock.setTime(endsAt + 6 * minute);
    expect(await tickAutoDebriefs(auto.deps)).toBe(1);
    expect(transcriptCalls()).toBe(1);
    expect(await debriefs()).toEqual([]);
    expect(await tickAutoDebriefs(auto.deps)).toBe(0);
    // Teams has written it; the retry, an hour on, makes the debrief and posts it into the user's chat.
    box.addTranscript(id!, plantedTranscript);
    await clock.setTime(endsAt + 66 * minute);
    await eventually(async () => (await tickAutoDebriefs(auto.deps)) > 0 || (await debriefs()).length > 0, 20_000);
    const [made] = await debriefs();
    expect(made).toMatchObject({ eventId: id, subject: 'Budget review' });
    expect(made!.report.you.talkShare).toBe(0.51);
    const { chatId } = (await http.get(`/api/meetings/${id}/debrief`)).json.debrief;
    expect(chatId).toEqual(expect.any(Number));

    // The user is told by their nudge channels, as a scheduled nudge (so within quiet hours and the
    // weekly cap): here by email from their own mailbox, with a link to the debrief's chat.
    await auto.deps.nudges.tick();
    const runs = await eventually(async () => {
      const found = ((await http.get('/api/nudges/runs')).json.runs as Array<{ kind: string; status: string }>).filter((r) => r.kind === 'meeting_debrief');
      return found.length && found.every((r) => r.status !== 'queued') ? found : null;
    }, 20_000);
    expect(runs).toEqual([expect.objectContaining({ kind: 'meeting_debrief', trigger: 'scheduled', status: 'sent', channels: ['app', 'email'], chatId })]);
    const mail = box.sentMail.find((m) => m.subject === nudgesTexts.debriefTitle('Budget review'));
    expect(mail?.to).toEqual(['db_auto@contoso.example']);
    expect(mail!.body).toContain(`/app?chat=${chatId}`);
    expect(mail!.body).toContain(nudgesTexts.debriefBody);
    // Only the user's own numbers leave the app: no transcript line is in the mail.
    expect(mail!.body).not.toContain('hiring plan');
    // Its unsubscribe link turns automatic debriefs off.
    const unsubscribe = /^<(https?:\/\/[^>\s]+)>$/.exec(mail!.headers['list-unsubscribe'] ?? '')?.[1];
    const confirm = await (await fetch(unsubscribe!)).text();
    expect(confirm).toContain(nudgesTexts.unsubscribeOf('meeting_debrief').button);
    const off = await fetch(unsubscribe!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(off.status).toBe(200);
    expect(await off.text()).toContain(nudgesTexts.unsubscribeOf('meeting_debrief').doneBody);
    expect((await http.get('/api/debriefs/settings')).json).toEqual({ automatic: false });
  });
});

describe('the model reads the debrief', () => {
  let openai: FakeOpenAI;
  let withModel: TestServer;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
    withModel = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, MICROSOFT_MEETING_DEBRIEFS: 'on', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: openai.url });
  });
  afterAll(async () => {
    await withModel?.stop();
    await openai?.close();
  });

  it("is given only the user's words, and keeps only what quotes them from the turn it names", async () => {
    const token = 'calendar-token-of-db_model';
    const box = graph.addMailbox({ tokens: [token], displayName: 'Dana Reyes', mail: 'db_model@contoso.example' });
    const { http } = await signUp(withModel.url, 'db_model', 'User db_model');
    expect((await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_calendar' })).status).toBe(200);
    const id = endedTeamsMeeting(box);
    box.addTranscript(id, plantedTranscript);
    openai.behave({
      reply: (request) =>
        (request.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name === 'meeting_debrief'
          ? JSON.stringify({
              strengths: [
                { kind: 'acknowledged', turn: 3, quote: "That's fair.", note: 'When Kim doubted the hiring plan you granted the point first, which kept her talking.' },
                // Sam's words, not Dana's: dropped.
                { kind: 'other', turn: 2, quote: 'the budget numbers and the hiring plan', note: 'Anything.' },
              ],
              moments: [{ kind: 'interruption', turn: 2, quote: 'Sure, the budget is ready.', note: 'You came in before Sam had finished his list.', instead: 'Wait for Sam to finish, then: “Budget first?”' }],
            })
          : 'ok',
    });
    const { debrief } = (await http.post(`/api/meetings/${id}/debrief`)).json;
    expect(debrief.coach).toEqual({
      by: 'model',
      strengths: [{ kind: 'acknowledged', seconds: 80, at: '1:20', quote: "That's fair.", note: 'When Kim doubted the hiring plan you granted the point first, which kept her talking.' }],
      moments: [{ kind: 'interruption', seconds: 28, at: '0:28', quote: 'Sure, the budget is ready.', note: 'You came in before Sam had finished his list.', instead: 'Wait for Sam to finish, then: “Budget first?”' }],
    });
    const asked = openai.requests.find((r) => (r.body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name === 'meeting_debrief');
    const given = JSON.stringify(asked?.body.messages);
    expect(given).toContain('[1] (0:00) USER: Um, thanks for joining.');
    expect(given).toContain('Sam Lee spoke for 20 s');
    for (const theirs of ['budget numbers and the hiring plan', 'not sure the hiring plan', 'Yes, by Friday']) expect(given).not.toContain(theirs);
  });
});

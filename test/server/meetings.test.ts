import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CalendarSubscription } from '../../src/server/db/entities/CalendarSubscription.js';
import { MicrosoftConnection } from '../../src/server/db/entities/MicrosoftConnection.js';
import { renewSubscriptions } from '../../src/server/features/meetings/subscriptions.js';
import { meetingsTexts, microsoftTexts } from '../../src/shared/texts/index.js';
import { startFakeGraph, type FakeGraph, type FakeMailbox } from '../fakes/graph/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp } from '../helpers/clients.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import { type HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// Meetings against the https Graph fake and the OpenAI fake: the calendar (series expanded,
// cancelled left out, paging, time zone, 429, 401), prep chats and what the model is given, both
// agenda actions as Graph receives them, reflections, the week in the coach's context, isolation,
// and change notifications (handshake, clientState, disconnect).

// Each test signs users up and connects them through Graph: slower than the default on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

let graph: FakeGraph;
let openai: FakeOpenAI;
let server: TestServer;

const hour = 3_600_000;
const inHours = (h: number) => new Date(Math.floor((Date.now() + h * hour) / 60_000) * 60_000).toISOString();

beforeAll(async () => {
  graph = await startFakeGraph();
  openai = await startFakeOpenAI();
  server = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: openai.url });
});
afterAll(async () => {
  await server?.stop();
  await graph?.close();
  await openai?.close();
});
beforeEach(() => {
  graph.reset();
  openai.reset();
});

type Connected = { http: HttpClient; box: FakeMailbox; user: { id: number } };

async function connect(http: HttpClient, token: string, service: 'microsoft_calendar' | 'microsoft_email') {
  const res = await http.post('/api/auth/microsoft/manual-token', { token, service });
  expect(res.status).toBe(200);
}

async function connectedUser(name: string, services: Array<'microsoft_calendar' | 'microsoft_email'> = ['microsoft_calendar', 'microsoft_email'], url = server.url): Promise<Connected> {
  const tokens = services.map((s) => `${s}-token-of-${name}`);
  const box = graph.addMailbox({ tokens, displayName: `User ${name}`, mail: `${name}@contoso.example` });
  const { http, user } = await signUp(url, name, `User ${name}`);
  for (const [i, service] of services.entries()) await connect(http, tokens[i]!, service);
  return { http, box, user };
}

async function messagesOf(http: HttpClient, chatId: number) {
  const res = await http.get(`/api/chats/${chatId}/messages`);
  expect(res.status).toBe(200);
  return res.json as Array<{ role: string; content: string; status: string }>;
}

async function settledReply(http: HttpClient, chatId: number) {
  return eventually(async () => {
    const messages = await messagesOf(http, chatId);
    const last = messages.at(-1);
    return last && last.role === 'assistant' && last.status !== 'streaming' ? messages : undefined;
  });
}

// The coach's own requests: memory extraction also asks the model after a reply, with a JSON schema.
const coachRequests = () => openai.requests.filter((r) => !(r.body as { response_format?: unknown }).response_format);
const systemText = (index = -1) => (coachRequests().at(index)?.body.messages ?? []).filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n\n');

describe('the calendar', () => {
  it('answers 409 without a Microsoft Calendar connection, even with mail connected', async () => {
    const { http } = await connectedUser('mt_mail_only', ['microsoft_email']);
    expect(await http.get('/api/meetings')).toMatchObject({ status: 409, json: { message: meetingsTexts.notConnected } });
    expect(await http.post('/api/meetings/AAMkEventX=/prep')).toMatchObject({ status: 409 });
  });

  it('expands a recurring series, leaves out cancelled events, pages, and orders by start in the user time zone', async () => {
    const { http, box } = await connectedUser('mt_list');
    const [series] = box.addEvents([
      { subject: 'Weekly 1:1', start: inHours(26), end: inHours(26.5), recurrence: { type: 'daily', interval: 2, count: 4 }, cancelledOccurrences: [1], attendees: [{ name: 'Sam Lee', email: 'sam@contoso.example', response: 'accepted' }] },
    ]);
    box.addEvents([
      { subject: 'Cancelled review', start: inHours(5), end: inHours(6), isCancelled: true },
      { subject: 'Budget sync', start: inHours(3), end: inHours(4), location: 'Room 4', isOnline: true, body: '<p>Numbers for Q1</p>', organizer: { name: 'Dana Fox', email: 'dana@contoso.example' } },
      { subject: 'Too far away', start: inHours(24 * 20), end: inHours(24 * 20 + 1) },
    ]);
    expect(await http.post('/trpc/meetings.setTimeZone', { timeZone: 'Asia/Kolkata' })).toMatchObject({ status: 200 });
    graph.setMaxPageSize(2);
    const res = await http.get('/api/meetings?days=14');
    expect(res.status).toBe(200);
    const subjects = res.json.meetings.map((m: { subject: string }) => m.subject);
    expect(subjects).toEqual(['Budget sync', 'Weekly 1:1', 'Weekly 1:1', 'Weekly 1:1']);
    const ids = res.json.meetings.map((m: { id: string }) => m.id);
    const occurrences = box.occurrencesOf(series!);
    expect(ids.slice(1)).toEqual([occurrences[0]!.id, occurrences[2]!.id, occurrences[3]!.id]);
    expect(res.json.meetings[0]).toMatchObject({
      organizer: { name: 'Dana Fox', email: 'dana@contoso.example' },
      location: 'Room 4',
      isOnline: true,
      joinUrl: expect.stringMatching(/^https:\/\/teams\.microsoft\.com\//),
      bodyPreview: 'Numbers for Q1',
      prepChatId: null,
      agendaSavedAt: null,
      needsReflection: false,
      start: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/),
    });
    expect(Date.parse(res.json.meetings[0].start)).toBe(Date.parse(inHours(3)));
    expect(res.json.meetings[1].attendees).toEqual([{ name: 'Sam Lee', email: 'sam@contoso.example', response: 'accepted' }]);
    const views = graph.requests.filter((r) => r.path === '/v1.0/me/calendarView');
    expect(views.length).toBeGreaterThanOrEqual(3);
    expect(views[0]!.prefer).toContain('outlook.timezone="Asia/Kolkata"');
    expect(Date.parse(views[0]!.query.endDateTime!) - Date.parse(views[0]!.query.startDateTime!)).toBeCloseTo(14 * 24 * hour, -4);
  });

  it('validates days (1 to 14, default 7)', async () => {
    const { http } = await connectedUser('mt_days');
    expect(await http.get('/api/meetings?days=15')).toMatchObject({ status: 400, json: { message: meetingsTexts.badDays } });
    expect(await http.get('/api/meetings?days=abc')).toMatchObject({ status: 400 });
    expect((await http.get('/api/meetings')).status).toBe(200);
    const view = graph.requests.find((r) => r.path === '/v1.0/me/calendarView')!;
    expect(Date.parse(view.query.endDateTime!) - Date.parse(view.query.startDateTime!)).toBeCloseTo(7 * 24 * hour, -4);
  });

  it('honours Retry-After on 429, and asks to reconnect when Graph refuses the token', async () => {
    const { http, box } = await connectedUser('mt_throttle');
    box.addEvents([{ subject: 'After the wait', start: inHours(2), end: inHours(3) }]);
    graph.throttle({ status: 429, times: 1, retryAfterSeconds: 1 });
    const started = Date.now();
    const res = await http.get('/api/meetings');
    expect(res.status).toBe(200);
    expect(res.json.meetings.map((m: { subject: string }) => m.subject)).toEqual(['After the wait']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(graph.requests.filter((r) => r.status === 429)).toHaveLength(1);

    const { http: revoked } = await connectedUser('mt_revoked');
    graph.revoke('microsoft_calendar-token-of-mt_revoked');
    expect(await revoked.get('/api/meetings')).toMatchObject({ status: 412, json: { message: microsoftTexts.reconnect } });
  });

  it('reads on demand and keeps the answer for 60 s without https', async () => {
    const { http, box } = await connectedUser('mt_cache');
    box.addEvents([{ subject: 'First', start: inHours(2), end: inHours(3) }]);
    expect((await http.get('/api/meetings')).json.meetings).toHaveLength(1);
    box.addEvents([{ subject: 'Second', start: inHours(4), end: inHours(5) }]);
    expect((await http.get('/api/meetings')).json.meetings).toHaveLength(1);
    expect(graph.requests.filter((r) => r.path === '/v1.0/me/calendarView')).toHaveLength(1);
  });
});

describe('prep chats', () => {
  it('creates a prep chat whose first message is an agenda, given the invite, attendee names and their mail subjects', async () => {
    const { http, box } = await connectedUser('mt_prep');
    box.addMessages([{ subject: 'Hiring plan numbers', fromName: 'Priya Shah', fromAddress: 'priya@contoso.example' }, { subject: 'Unrelated newsletter', fromAddress: 'news@example.com' }]);
    const [eventId] = box.addEvents([
      {
        subject: 'Quarterly planning',
        start: inHours(30),
        end: inHours(31),
        location: 'Board room',
        body: '<p>Topics:</p><ul><li>Hiring plan</li><li>Budget for Q1</li></ul>',
        attendees: [{ name: 'Priya Shah', email: 'priya@contoso.example' }, { name: 'Tom Berg', email: 'tom@contoso.example' }],
      },
    ]);
    openai.behave({ reply: 'Here is your agenda:\n1. Hiring plan (20 min)\n2. Budget (20 min)' });
    const res = await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/prep`);
    expect(res.status).toBe(201);
    const { chatId } = res.json;
    expect(chatId).toEqual(expect.any(Number));
    const messages = await settledReply(http, chatId);
    expect(messages).toEqual([expect.objectContaining({ role: 'assistant', status: 'complete', content: expect.stringContaining('agenda') })]);
    const chats = await http.get('/api/chats');
    expect(chats.json.find((c: { id: number }) => c.id === chatId)).toMatchObject({ title: 'Prep: Quarterly planning' });

    const context = systemText();
    for (const expected of ['Subject: Quarterly planning', 'Priya Shah', 'Tom Berg', 'Board room', 'Hiring plan', 'Budget for Q1', 'Hiring plan numbers', 'write the agenda']) {
      expect(context).toContain(expected);
    }
    expect(context).not.toContain('Unrelated newsletter');

    const again = await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/prep`);
    expect(again).toMatchObject({ status: 200, json: { chatId } });
    const list = await http.get('/api/meetings');
    expect(list.json.meetings[0]).toMatchObject({ id: eventId, prepChatId: chatId });
  });

  it("answers 404 for another user's event id, an unknown one, and a malformed one", async () => {
    const { box: theirs } = await connectedUser('mt_owner');
    const [foreign] = theirs.addEvents([{ subject: 'Private', start: inHours(2), end: inHours(3) }]);
    const { http } = await connectedUser('mt_intruder');
    expect(await http.post(`/api/meetings/${encodeURIComponent(foreign!)}/prep`)).toMatchObject({ status: 404, json: { message: meetingsTexts.notFound } });
    expect(await http.post(`/api/meetings/${encodeURIComponent(foreign!)}/agenda`, { text: 'x' })).toMatchObject({ status: 404 });
    expect(await http.post(`/api/meetings/${encodeURIComponent(foreign!)}/agenda/email`, { text: 'x' })).toMatchObject({ status: 404 });
    expect(await http.post('/api/meetings/AAMkUnknown=/prep')).toMatchObject({ status: 404 });
    expect(await http.post(`/api/meetings/${encodeURIComponent('bad id<script>')}/prep`)).toMatchObject({ status: 400 });
    expect(theirs.eventBody(foreign!)).toBe('');
    expect(graph.requests.some((r) => r.method === 'PATCH' || r.path.endsWith('/sendMail'))).toBe(false);
  });
});

describe('agenda actions', () => {
  it('writes the agenda into the invite above its own text, and replaces it when saved again', async () => {
    const { http, box } = await connectedUser('mt_save');
    const [eventId] = box.addEvents([{ subject: 'Design review', start: inHours(5), end: inHours(6), body: '<p>Original invite text</p>' }]);
    const path = `/api/meetings/${encodeURIComponent(eventId!)}/agenda`;
    const first = await http.post(path, { text: '1. Goals (5 min)\n2. Mockups <v2> (20 min)' });
    expect(first).toMatchObject({ status: 200, json: { success: true, meetingId: eventId, agendaSavedAt: expect.any(String) } });
    const patch = graph.requests.find((r) => r.method === 'PATCH')!;
    expect(decodeURIComponent(patch.path)).toBe(`/v1.0/me/events/${eventId}`);
    expect(patch.body).toMatchObject({ body: { contentType: 'HTML', content: expect.stringContaining('Mockups &lt;v2&gt;') } });
    await http.post(path, { text: '1. Only this now (10 min)' });
    const body = box.eventBody(eventId!)!;
    expect(body).toContain('Only this now');
    expect(body).not.toContain('Mockups');
    expect(body.match(/ai-coach-agenda:start/g)).toHaveLength(1);
    expect(body).toContain('Original invite text');
    expect(body.indexOf('Only this now')).toBeLessThan(body.indexOf('Original invite text'));
  });

  it('refuses to write into an invite the user did not organise (403), but emails it', async () => {
    const { http, box } = await connectedUser('mt_guest_attendee');
    const [eventId] = box.addEvents([
      {
        subject: 'Vendor call',
        start: inHours(5),
        end: inHours(6),
        organizer: { name: 'Olga Organizer', email: 'olga@contoso.example' },
        attendees: [
          { name: 'User mt_guest_attendee', email: 'mt_guest_attendee@contoso.example' },
          { name: 'Ben Buyer', email: 'ben@contoso.example' },
          { name: 'Ben again', email: 'BEN@contoso.example' },
        ],
      },
    ]);
    const saved = await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/agenda`, { text: '1. Pricing' });
    expect(saved).toMatchObject({ status: 403, json: { message: meetingsTexts.notOrganizer } });
    expect(graph.requests.some((r) => r.method === 'PATCH')).toBe(false);

    const emailed = await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/agenda/email`, { text: '1. Pricing (10 min)' });
    expect(emailed).toMatchObject({
      status: 200,
      json: { success: true, subject: 'Agenda: Vendor call', recipients: [{ name: 'Olga Organizer', email: 'olga@contoso.example' }, { name: 'Ben Buyer', email: 'ben@contoso.example' }] },
    });
    const send = graph.requests.find((r) => r.path === '/v1.0/me/sendMail')!;
    expect(send.body).toMatchObject({
      message: { subject: 'Agenda: Vendor call', body: { contentType: 'HTML', content: expect.stringContaining('Pricing') }, toRecipients: [{ emailAddress: { address: 'olga@contoso.example' } }, { emailAddress: { address: 'ben@contoso.example' } }] },
    });
    expect(box.sentMail).toHaveLength(1);
  });

  it('records agendaSavedAt on a meeting that was never prepared, and a later Prepare keeps it', async () => {
    const { http, box } = await connectedUser('mt_save_unprepared');
    const [eventId] = box.addEvents([{ subject: 'Roadmap sync', start: inHours(5), end: inHours(6), body: '<p>Plans</p>', attendees: [{ name: 'Ann', email: 'ann@contoso.example' }] }]);
    const saved = await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/agenda`, { text: '1. Plans (10 min)' });
    expect(saved).toMatchObject({ status: 200, json: { success: true, agendaSavedAt: expect.any(String) } });
    const listed = (await http.get('/api/meetings')).json.meetings.find((m: { id: string }) => m.id === eventId);
    expect(listed).toMatchObject({ agendaSavedAt: saved.json.agendaSavedAt, prepChatId: null, needsReflection: false });

    const prep = await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/prep`);
    expect(prep.status).toBe(201);
    await settledReply(http, prep.json.chatId);
    const after = (await http.get('/api/meetings')).json.meetings.find((m: { id: string }) => m.id === eventId);
    expect(after).toMatchObject({ agendaSavedAt: saved.json.agendaSavedAt, prepChatId: prep.json.chatId });
    expect(await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/prep`)).toMatchObject({ status: 200, json: { chatId: prep.json.chatId } });
  });

  it('needs Microsoft Email to send, and a text', async () => {
    const { http, box } = await connectedUser('mt_no_mail', ['microsoft_calendar']);
    const [eventId] = box.addEvents([{ subject: 'Standup', start: inHours(5), end: inHours(6), attendees: [{ name: 'A', email: 'a@contoso.example' }] }]);
    expect(await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/agenda/email`, { text: '1. Updates' })).toMatchObject({ status: 409, json: { message: meetingsTexts.mailNotConnected } });
    expect(await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/agenda`, { text: '   ' })).toMatchObject({ status: 400, json: { message: meetingsTexts.agendaRequired } });
  });
});

describe('after the meeting', () => {
  it("asks 'How did it go?' for a prepared meeting that ended in the last day, and the answer gets one reflective follow-up", async () => {
    const { http, box } = await connectedUser('mt_reflect');
    const [eventId] = box.addEvents([{ subject: 'Retro', start: inHours(-2), end: inHours(-1), attendees: [{ name: 'Kim', email: 'kim@contoso.example' }] }]);
    // Prepared before it started (the prep reads the event itself, whatever its time).
    const { chatId } = (await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/prep`)).json;
    await settledReply(http, chatId);
    const list = await http.get('/api/meetings');
    expect(list.json.meetings).toEqual([expect.objectContaining({ id: eventId, subject: 'Retro', prepChatId: chatId, needsReflection: true })]);

    openai.reset();
    const answer = await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/reflection`, { text: 'It went well, but we ran over. I will send notes by Friday.' });
    expect(answer).toMatchObject({ status: 201, json: { chatId } });
    const messages = await settledReply(http, chatId);
    expect(messages.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
    expect(systemText()).toContain('the meeting is over and the user just told you how it went');
    expect((await http.get('/api/meetings')).json.meetings).toEqual([]);
    expect(await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/reflection`, { text: 'again' })).toMatchObject({ status: 409 });
  });
});

describe('the week in the coach context', () => {
  it("puts the coming meetings in the context when asked what is on the user's plate", async () => {
    const { http, box } = await connectedUser('mt_week');
    box.addEvents([{ subject: 'Pipeline review', start: inHours(4), end: inHours(5), attendees: [{ name: 'Lena Park', email: 'lena@contoso.example' }] }]);
    const chat = await http.post('/api/chats', {});
    await http.post(`/api/chats/${chat.json.id}/messages`, { role: 'user', content: 'What is on my plate today?' });
    await settledReply(http, chat.json.id);
    const context = systemText();
    expect(context).toContain('Pipeline review');
    expect(context).toContain('Lena Park');

    openai.reset();
    await http.post(`/api/chats/${chat.json.id}/messages`, { role: 'user', content: 'Help me write a SMART goal' });
    await settledReply(http, chat.json.id);
    expect(systemText()).not.toContain('Pipeline review');
  });
});

describe('change notifications (https PUBLIC_URL)', () => {
  let https: TestServer;
  let db: FreshDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
    https = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, PUBLIC_URL: 'https://coach.example.test' }, db);
  });
  afterAll(async () => {
    await https?.stop();
    await db?.dispose();
  });

  it('subscribes after the validation handshake, accepts only its clientState, and unsubscribes on disconnect', async () => {
    graph.setNotificationTarget((url) => url.replace('https://coach.example.test', https.url));
    const { http, box } = await connectedUser('mt_notify', ['microsoft_calendar'], https.url);
    box.addEvents([{ subject: 'Before', start: inHours(2), end: inHours(3) }]);
    const first = await http.get('/api/meetings');
    expect(first).toMatchObject({ status: 200, json: { subscribed: true } });
    const [subscription] = graph.subscriptions();
    expect(subscription).toMatchObject({ resource: 'me/events', notificationUrl: 'https://coach.example.test/api/microsoft/notifications', changeType: 'created,updated,deleted' });
    expect(subscription!.clientState.length).toBeGreaterThanOrEqual(32);

    box.addEvents([{ subject: 'After', start: inHours(4), end: inHours(5) }]);
    expect((await http.get('/api/meetings')).json.meetings).toHaveLength(1); // cached until Graph says it changed
    expect(await graph.notify(box, { clientState: 'forged' })).toEqual([403]);
    expect((await http.get('/api/meetings')).json.meetings).toHaveLength(1);
    expect(await graph.notify(box)).toEqual([202]);
    expect((await http.get('/api/meetings')).json.meetings.map((m: { subject: string }) => m.subject)).toEqual(['Before', 'After']);

    expect((await http.post('/api/auth/microsoft/disconnect', { service: 'calendar' })).status).toBe(200);
    expect(graph.subscriptions()).toEqual([]);
    expect(graph.requests.some((r) => r.method === 'DELETE' && decodeURIComponent(r.path) === `/v1.0/subscriptions/${subscription!.id}`)).toBe(true);
    expect(await http.get('/api/meetings')).toMatchObject({ status: 409 });
  });

  it('the periodic job renews a subscription that expires soon, replaces a lapsed one and drops one whose calendar needs reconnecting', async () => {
    graph.setNotificationTarget((url) => url.replace('https://coach.example.test', https.url));
    const { http, user } = await connectedUser('mt_renew', ['microsoft_calendar'], https.url);
    expect((await http.get('/api/meetings')).json.subscribed).toBe(true);
    const rowOf = () => https.deps.orm.em.fork().findOne(CalendarSubscription, { user: user.id });
    const made = (await rowOf())!;
    const setExpiry = (at: Date) => https.deps.orm.em.fork().nativeUpdate(CalendarSubscription, { id: made.id }, { expiresAt: at });

    // Two days left: nothing is due.
    expect(await renewSubscriptions(https.deps)).toBe(0);

    // Six hours left: renewed in place on Graph (PATCH) and here, two days ahead.
    await setExpiry(new Date(Date.now() + 6 * 3_600_000));
    expect(await renewSubscriptions(https.deps)).toBe(1);
    const renewed = (await rowOf())!;
    expect(renewed.graphSubscriptionId).toBe(made.graphSubscriptionId);
    expect(renewed.expiresAt.getTime()).toBeGreaterThan(Date.now() + 40 * 3_600_000);
    expect(graph.requests.some((r) => r.method === 'PATCH' && decodeURIComponent(r.path) === `/v1.0/subscriptions/${made.graphSubscriptionId}`)).toBe(true);
    const onGraph = graph.subscriptions().find((s) => s.id === made.graphSubscriptionId)!;
    expect(new Date(onGraph.expirationDateTime).getTime()).toBeGreaterThan(Date.now() + 40 * 3_600_000);

    // Lapsed (Graph has dropped it): a new subscription, through the handshake again, replaces it.
    await setExpiry(new Date(Date.now() - 60_000));
    expect(await renewSubscriptions(https.deps)).toBe(1);
    const replaced = (await rowOf())!;
    expect(replaced.graphSubscriptionId).not.toBe(made.graphSubscriptionId);
    expect(graph.subscriptions().some((s) => s.id === replaced.graphSubscriptionId)).toBe(true);

    // The calendar needs reconnecting: the subscription is dropped, not renewed.
    await https.deps.orm.em.fork().nativeUpdate(MicrosoftConnection, { user: user.id }, { needsReconnect: true });
    await https.deps.orm.em.fork().nativeUpdate(CalendarSubscription, { user: user.id }, { expiresAt: new Date(Date.now() + 60_000) });
    expect(await renewSubscriptions(https.deps)).toBe(0);
    expect(await rowOf()).toBeNull();
  });

  it('answers the validation handshake with the token as plain text', async () => {
    const res = await fetch(`${https.url}/api/microsoft/notifications?validationToken=${encodeURIComponent('abc 123')}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('abc 123');
  });
});

describe('privacy', () => {
  it('exports prep chats and their meetings', async () => {
    const { http, box } = await connectedUser('mt_export');
    const [eventId] = box.addEvents([{ subject: 'Exported meeting', start: inHours(5), end: inHours(6) }]);
    const { chatId } = (await http.post(`/api/meetings/${encodeURIComponent(eventId!)}/prep`)).json;
    await settledReply(http, chatId);
    const exported = await http.post('/trpc/privacy.exportMyData', { format: 'json' });
    expect(exported.status).toBe(200);
    const text = JSON.stringify(exported.json);
    expect(text).toContain('Prep: Exported meeting');
    expect(text).toContain('meetingPreps');
  });
});

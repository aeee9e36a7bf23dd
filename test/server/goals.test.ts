import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GoalReminder } from '../../src/server/db/entities/Goal.js';
import { checkInsFromText } from '../../src/server/features/goals/chatCheckIns.js';
import { callGoalReminders, spokenNumber } from '../../src/server/features/goals/goalCheckInCall.js';
import { claimDueReminders } from '../../src/server/features/goals/goalReminders.js';
import { phoneCallLimit } from '../../src/server/features/limits/rateLimits.js';
import { XMLParser } from 'fast-xml-parser';
import { postSignedWebhook, startFakeTwilio } from '../fakes/twilio/index.js';
import { verifyPhone, twilioEnv } from '../helpers/phone.js';
import { goalProgress, goalStatus, keyResultProgress } from '../../src/server/features/goals/goalStatus.js';
import { goalTexts } from '../../src/shared/texts/index.js';
import { startFakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp } from '../helpers/clients.js';
import { freshDatabase } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Goals: the REST contract on the goals procedures, status derived from progress
// against time, check-ins that keep their history, isolation, and reminders claimed once.
let server: TestServer;
let users = 0;
beforeAll(async () => {
  server = await startTestServer({ DEMO_MODE: 'false' });
});
afterAll(async () => {
  await server?.stop();
});

const newUser = async () => (await signUp(server.url, `goals-${++users}-${Date.now()}`)).http;
const okr = {
  title: 'Ship a faster platform',
  framework: 'OKR',
  dueDate: '2099-03-31',
  keyResults: [
    { title: 'Deploys a day', start: 1, target: 5, unit: 'deploys/day' },
    { title: 'Lead time', start: 10, target: 2, unit: 'days' },
  ],
};

describe('status, derived from progress against time', () => {
  const created = new Date('2026-01-01T00:00:00Z');
  const due = '2026-01-10'; // over at 2026-01-11T00:00Z: a span of 10 days
  const at = (day: number) => new Date(created.getTime() + day * 86_400_000);
  it.each([
    // No progress yet is not 'on track' (issue 49): not started, until time makes it at risk.
    { day: 0, progress: 0, status: 'not_started' },
    { day: 1, progress: 0, status: 'not_started' },
    { day: 2, progress: 0, status: 'at_risk' },
    { day: 0, progress: 0.05, status: 'on_track' },
    { day: 5, progress: 0.4, status: 'on_track' }, // 10 points behind the half elapsed
    { day: 5, progress: 0.39, status: 'at_risk' },
    { day: 5, progress: 0.25, status: 'at_risk' }, // 25 points behind
    { day: 5, progress: 0.24, status: 'behind' },
    { day: 9.99, progress: 0.95, status: 'on_track' },
    { day: 10.5, progress: 0.99, status: 'behind' }, // past the due date, not done
    { day: 10.5, progress: 1, status: 'done' },
    { day: 2, progress: 0, done: true, status: 'done' },
  ])('day $day at $progress -> $status', ({ day, progress, done, status }) => {
    expect(goalStatus({ progress, createdAt: created, dueDate: due, done: Boolean(done) }, at(day))).toBe(status);
  });

  it('measures progress in either direction and clamps it', () => {
    expect(keyResultProgress({ start: 1, target: 5 }, 3)).toBe(0.5);
    expect(keyResultProgress({ start: 10, target: 2 }, 6)).toBe(0.5); // going down
    expect(keyResultProgress({ start: 1, target: 5 }, 9)).toBe(1);
    expect(keyResultProgress({ start: 1, target: 5 }, -3)).toBe(0);
    expect(goalProgress([0.5, 1], false)).toBe(0.75);
    expect(goalProgress([], false)).toBe(0);
    expect(goalProgress([0.1], true)).toBe(1);
  });
});

describe('the goals REST paths', () => {
  it('creates a goal with key results, checks in twice, and keeps every check-in', async () => {
    const http = await newUser();
    const created = await http.post('/api/goals', okr);
    expect(created.status).toBe(201);
    const goal = created.json;
    expect(goal).toMatchObject({ title: okr.title, framework: 'OKR', dueDate: '2099-03-31', status: 'not_started', progress: 0, cadence: 'weekly', chatId: null });
    expect(goal.keyResults).toEqual([
      { id: expect.any(Number), title: 'Deploys a day', start: 1, target: 5, unit: 'deploys/day', current: 1, progress: 0, checkIns: [] },
      { id: expect.any(Number), title: 'Lead time', start: 10, target: 2, unit: 'days', current: 10, progress: 0, checkIns: [] },
    ]);
    const [deploys, lead] = goal.keyResults;

    expect((await http.post(`/api/goals/${goal.id}/check-ins`, { keyResultId: deploys.id, value: 3, note: 'New pipeline' })).status).toBe(201);
    const second = await http.post(`/api/goals/${goal.id}/check-ins`, { keyResultId: lead.id, value: 6 });
    expect(second.json.keyResults[1]).toMatchObject({ current: 6, progress: 0.5 });
    expect(second.json.progress).toBe(0.5);

    const read = await http.get(`/api/goals/${goal.id}`);
    expect(read.json.keyResults[0].checkIns).toEqual([{ value: 3, note: 'New pipeline', createdAt: expect.any(String) }]);
    expect((await http.get('/api/goals')).json.goals.map((g: { id: number }) => g.id)).toEqual([goal.id]);
  });

  it('refuses bad input with 400 and a message, and stores nothing', async () => {
    const http = await newUser();
    const cases: Array<[unknown, string]> = [
      [{ ...okr, title: '  ' }, goalTexts.titleRequired],
      [{ ...okr, title: undefined }, goalTexts.titleRequired],
      [{ ...okr, framework: 'KPI' }, goalTexts.unknownFramework],
      [{ ...okr, dueDate: '31/03/2099' }, goalTexts.dueDateInvalid],
      [{ ...okr, keyResults: [{ title: 'Flat', start: 3, target: 3, unit: '' }] }, goalTexts.targetEqualsStart],
      [{ ...okr, keyResults: [{ title: 'Words', start: 'one', target: 3, unit: '' }] }, goalTexts.notANumber],
    ];
    for (const [body, message] of cases) {
      expect(await http.post('/api/goals', body), JSON.stringify(body)).toMatchObject({ status: 400, json: { message } });
    }
    expect((await http.get('/api/goals')).json.goals).toEqual([]);
    const goal = (await http.post('/api/goals', okr)).json;
    expect(await http.post(`/api/goals/${goal.id}/check-ins`, { keyResultId: goal.keyResults[0].id, value: 'three' })).toMatchObject({ status: 400, json: { message: goalTexts.notANumber } });
    // JSON may hold a number JavaScript reads as Infinity.
    expect(await http.post(`/api/goals/${goal.id}/check-ins`, `{"keyResultId":${goal.keyResults[0].id},"value":1e999}`)).toMatchObject({ status: 400 });
    expect(await http.get('/api/goals/abc')).toMatchObject({ status: 400 });
  });

  it('edits a goal without losing history: a key result with check-ins stays', async () => {
    const http = await newUser();
    const goal = (await http.post('/api/goals', okr)).json;
    const [deploys, lead] = goal.keyResults;
    await http.post(`/api/goals/${goal.id}/check-ins`, { keyResultId: deploys.id, value: 2 });

    const refused = await http.put(`/api/goals/${goal.id}`, { keyResults: [{ id: lead.id, title: 'Lead time', start: 10, target: 2, unit: 'days' }] });
    expect(refused).toMatchObject({ status: 409, json: { message: goalTexts.keyResultHasHistory } });

    const edited = await http.put(`/api/goals/${goal.id}`, {
      title: 'Ship a much faster platform',
      keyResults: [
        { id: deploys.id, title: 'Deploys per day', start: 1, target: 8, unit: 'deploys/day' },
        { title: 'Incidents', start: 4, target: 1, unit: 'a month' },
      ],
    });
    expect(edited.status).toBe(200);
    expect(edited.json.title).toBe('Ship a much faster platform');
    expect(edited.json.keyResults.map((kr: { title: string }) => kr.title)).toEqual(['Deploys per day', 'Incidents']);
    expect(edited.json.keyResults[0]).toMatchObject({ id: deploys.id, current: 2, checkIns: [{ value: 2 }] });

    const done = await http.put(`/api/goals/${goal.id}`, { done: true });
    expect(done.json).toMatchObject({ status: 'done', progress: 1, doneAt: expect.any(String) });
    expect((await http.put(`/api/goals/${goal.id}`, { done: false })).json).toMatchObject({ status: 'on_track', doneAt: null });
  });

  it('keeps goals to their owner: another user’s goal is 404 everywhere', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const goal = (await alice.post('/api/goals', okr)).json;
    const kr = goal.keyResults[0].id;
    expect(await bob.get(`/api/goals/${goal.id}`)).toMatchObject({ status: 404, json: { message: goalTexts.notFound } });
    expect((await bob.put(`/api/goals/${goal.id}`, { title: 'Mine now' })).status).toBe(404);
    expect((await bob.post(`/api/goals/${goal.id}/check-ins`, { keyResultId: kr, value: 4 })).status).toBe(404);
    expect((await bob.delete(`/api/goals/${goal.id}`)).status).toBe(404);
    expect((await bob.get('/api/goals')).json.goals).toEqual([]);
    // A key result of another goal is not this goal's.
    const own = (await bob.post('/api/goals', okr)).json;
    expect(await bob.post(`/api/goals/${own.id}/check-ins`, { keyResultId: kr, value: 4 })).toMatchObject({ status: 404, json: { message: goalTexts.keyResultNotFound } });
    // A goal cannot claim another user's chat.
    const chat = (await alice.post('/api/chats', { title: 'Alice' })).json;
    expect((await bob.post('/api/goals', { ...okr, chatId: chat.id })).status).toBe(404);
    expect((await alice.post('/api/goals', { ...okr, chatId: chat.id })).json.chatId).toBe(chat.id);

    expect((await alice.delete(`/api/goals/${goal.id}`)).status).toBe(204);
    expect((await alice.get(`/api/goals/${goal.id}`)).status).toBe(404);
  });
});

describe('check-in reminders', () => {
  it('claims a due reminder once, moves the next one a week on, and skips goals not due, done or off', async () => {
    const http = await newUser();
    const due = (await http.post('/api/goals', okr)).json;
    const off = (await http.post('/api/goals', { ...okr, cadence: 'off' })).json;
    const done = (await http.post('/api/goals', okr)).json;
    await http.put(`/api/goals/${done.id}`, { done: true });

    const inEightDays = new Date(Date.now() + 8 * 86_400_000);
    const first = await claimDueReminders(server.deps.orm, inEightDays);
    expect(first.filter((r) => [due.id, off.id, done.id].includes(r.goalId)).map((r) => r.goalId)).toEqual([due.id]);
    expect(await claimDueReminders(server.deps.orm, inEightDays)).toEqual([]);

    const reminders = (await http.get('/trpc/goals.reminders')).json.result.data;
    expect(reminders).toEqual([{ id: expect.any(Number), goalId: due.id, goalTitle: okr.title, createdAt: expect.any(String) }]);
    await http.post('/trpc/goals.markRemindersSeen', { ids: [reminders[0].id] });
    expect((await http.get('/trpc/goals.reminders')).json.result.data).toEqual([]);

    // A week later it is due again; a check-in moves it a week from the check-in.
    expect((await claimDueReminders(server.deps.orm, new Date(inEightDays.getTime() + 7 * 86_400_000))).map((r) => r.goalId)).toContain(due.id);
  });

  it('loses no reminder across a restart, and two instances never claim the same one', async () => {
    const database = await freshDatabase();
    const first = await startTestServer({ DEMO_MODE: 'false' }, database);
    const { http } = await signUp(first.url, `restart-${Date.now()}`);
    const goal = (await http.post('/api/goals', okr)).json;
    // Its reminder comes due while the server is down.
    await first.deps.orm.em.fork().getConnection().execute(`update "goal" set "next_reminder_at" = now() - interval '1 hour' where "id" = ?`, [goal.id]);
    await first.stop();

    const second = await startTestServer({ DEMO_MODE: 'false' }, database);
    try {
      // The job queue's job at start claims it (jobs/jobQueue.ts), once.
      await eventually(async () => (await second.deps.orm.em.fork().count(GoalReminder, { goal: goal.id })) === 1, 20_000);
      const later = new Date(Date.now() + 8 * 86_400_000);
      // Claims in parallel, as two instances would (on PostgreSQL they are two connections).
      const claims = (await Promise.all([claimDueReminders(second.deps.orm, later), claimDueReminders(second.deps.orm, later), claimDueReminders(second.deps.orm, later)])).flat();
      expect(claims.filter((c) => c.goalId === goal.id)).toHaveLength(1);
      expect(await second.deps.orm.em.fork().count(GoalReminder, { goal: goal.id })).toBe(2);
    } finally {
      await second.stop();
      await database.dispose();
    }
  });
});

describe('goals in the chat', () => {
  const krs = [
    { id: 1, goalId: 9, title: 'Deploys a day', unit: 'deploys/day' },
    { id: 2, goalId: 9, title: 'Lead time', unit: 'days' },
    { id: 3, goalId: 9, title: 'Activation', unit: '%' },
  ];
  it.each([
    ['we are at 3 deploys a day now', [{ keyResultId: 1, value: 3 }]],
    ["We're at 4.5 deploys per day", [{ keyResultId: 1, value: 4.5 }]],
    ['lead time is down to 4 days', [{ keyResultId: 2, value: 4 }]],
    ['Activation reached 52%', [{ keyResultId: 3, value: 52 }]],
    ['we hit 5 deploys a day and lead time is now 3 days', [{ keyResultId: 1, value: 5 }, { keyResultId: 2, value: 3 }]],
    ['I had 3 meetings today', []],
    ['Can you help me plan 2 workshops?', []],
  ])('reads %j', (text, expected) => {
    expect(checkInsFromText(text, krs).map(({ keyResultId, value }) => ({ keyResultId, value }))).toEqual(expected);
  });

  it('takes the one number of a progress report for a goal with a single key result', () => {
    expect(checkInsFromText('we are at 7 now', [krs[0]!])).toEqual([{ keyResultId: 1, goalId: 9, value: 7 }]);
    expect(checkInsFromText('7 or 8, not sure', [krs[0]!])).toEqual([]);
  });

  it('logs a check-in when the user tells the coach in the chat the goal came from', async () => {
    const http = await newUser();
    const chat = (await http.post('/api/chats', { title: 'Platform OKRs' })).json;
    const goal = (await http.post('/api/goals', { ...okr, chatId: chat.id })).json;
    expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'Good news: we are at 3 deploys a day now' })).status).toBe(201);
    const read = (await http.get(`/api/goals/${goal.id}`)).json;
    expect(read.keyResults[0]).toMatchObject({ current: 3, checkIns: [{ value: 3, note: 'Good news: we are at 3 deploys a day now' }] });
    expect(read.keyResults[1].checkIns).toEqual([]);
  });

  it('saves a goal from a chat once: the same goal from the same chat again answers the goal already saved (issue 49)', async () => {
    const http = await newUser();
    const chat = (await http.post('/api/chats', { title: 'Platform OKRs' })).json;
    const first = await http.post('/api/goals', { ...okr, chatId: chat.id });
    const again = await http.post('/api/goals', { ...okr, chatId: chat.id });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    // Different in any way, or not from a chat, it is a goal of its own.
    const edited = await http.post('/api/goals', { ...okr, chatId: chat.id, keyResults: [okr.keyResults[0]] });
    const byHand = await http.post('/api/goals', okr);
    expect(new Set([first.json.id, edited.json.id, byHand.json.id]).size).toBe(3);
    expect((await http.get('/api/goals')).json.goals).toHaveLength(3);
  });

  it('asks about a goal left a week without a check-in when the user opens a chat, once, and reads the answer there', async () => {
    const http = await newUser();
    const goal = (await http.post('/api/goals', okr)).json;
    await server.deps.orm.em.fork().getConnection().execute(`update goal set created_at = now() - interval '8 days' where id = ?`, [goal.id]);

    const chat = (await http.post('/api/chats', {})).json;
    const messages = (await http.get(`/api/chats/${chat.id}/messages`)).json;
    const opening = (messages.messages ?? messages).map((m: { role: string; content: string }) => m);
    expect(opening).toHaveLength(1);
    expect(opening[0]).toMatchObject({ role: 'assistant', content: goalTexts.coachAsks(okr.title, 8, ['Deploys a day', 'Lead time']) });

    const another = (await http.post('/api/chats', {})).json;
    const none = (await http.get(`/api/chats/${another.id}/messages`)).json;
    expect(none.messages ?? none).toEqual([]);

    await http.post(`/api/chats/${chat.id}/messages`, { content: "We're at 4 deploys a day and lead time is down to 6 days" });
    const read = (await http.get(`/api/goals/${goal.id}`)).json;
    expect(read.keyResults.map((kr: { current: number }) => kr.current)).toEqual([4, 6]);
  });
});

describe('goals in the coach’s context', () => {
  it('sends the active goals and where their key results stand to the model, and a reported number as already logged', async () => {
    const fake = await startFakeOpenAI();
    const withModel = await startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url });
    try {
      const { http } = await signUp(withModel.url, `goals-model-${Date.now()}`);
      const chat = (await http.post('/api/chats', { title: 'Platform' })).json;
      await http.post('/api/goals', { ...okr, chatId: chat.id });
      const done = (await http.post('/api/goals', { ...okr, title: 'An old finished goal' })).json;
      await http.put(`/api/goals/${done.id}`, { done: true });

      await http.post(`/api/chats/${chat.id}/messages`, { content: 'We are at 3 deploys a day now' });
      const request = await eventually(() => fake.requests[0]);
      const system = (request.body.messages ?? []).filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
      expect(system).toContain('- Ship a faster platform (OKR, due 2099-03-31, on track)');
      expect(system).toMatch(/Deploys a day: 3 of 5 deploys\/day \(last check-in: \d{4}-\d{2}-\d{2}\)/);
      expect(system).toContain('Lead time: 10 of 2 days (last check-in: none yet)');
      expect(system).not.toContain('An old finished goal');
      expect(system).toContain('Here is your SMART goal:');
    } finally {
      await withModel.stop();
      await fake.close();
    }
  });
});

describe('a check-in call from the coach', () => {
  it.each([
    ['3.5', 3.5],
    ["we're at about 4 now", 4],
    ['forty two', 42],
    ['three point five', 3.5],
    ['a hundred and twenty', 120],
    ['1,250 users', 1250],
    ['zero point eight', 0.8],
    ['not sure yet', null],
  ])('hears the number in %j', (said, expected) => {
    expect(spokenNumber(said)).toBe(expected);
  });

  it('calls the profile phone for a weekly_call goal, asks each key result and logs what is said', async () => {
    const twilio = await startFakeTwilio();
    const publicUrl = 'https://coach.example.com';
    const phoneServer = await startTestServer({
      DEMO_MODE: 'false',
      ...twilioEnv(twilio, publicUrl),
    });
    const parse = (xml: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(xml).Response;
    const webhook = async (url: string, params: Record<string, string>) => {
      const res = await postSignedWebhook({ authToken: twilio.authToken, signedUrl: url, targetUrl: phoneServer.url + url.slice(publicUrl.length), params });
      expect(res.status).toBe(200);
      return parse(res.text);
    };
    try {
      const { http } = await signUp(phoneServer.url, `goal-caller-${Date.now()}`, 'Robin Caller');
      expect((await http.post('/trpc/profile.updateProfile', { fullName: 'Robin Caller', phone: '+15551234567' })).status).toBe(200);
      // An unverified profile phone is never called ...
      const unverifiedGoal = (await http.post('/api/goals', { ...okr, title: 'Unverified phone', cadence: 'weekly_call' })).json;
      const unverified = (await claimDueReminders(phoneServer.deps.orm, new Date(Date.now() + 8 * 86_400_000))).filter((r) => r.goalId === unverifiedGoal.id);
      expect(unverified).toHaveLength(1);
      expect(await callGoalReminders(phoneServer.deps, unverified)).toBe(0);
      expect(twilio.calls).toHaveLength(0);
      // ... the verified one is.
      await verifyPhone(http, twilio, '+15551234567');
      const called = (await http.post('/api/goals', { ...okr, cadence: 'weekly_call' })).json;
      const quiet = (await http.post('/api/goals', { ...okr, title: 'In-app only' })).json;

      const claimed = (await claimDueReminders(phoneServer.deps.orm, new Date(Date.now() + 8 * 86_400_000))).filter((r) => [called.id, quiet.id].includes(r.goalId));
      expect(claimed).toHaveLength(2);
      expect(await callGoalReminders(phoneServer.deps, claimed)).toBe(1);
      expect(twilio.calls).toHaveLength(1);
      const call = twilio.calls[0]!;
      expect(call.to).toBe('+15551234567');
      expect(call.url).toMatch(/^https:\/\/coach\.example\.com\/api\/twilio\/voice\/goal-check-in\?reminder=\d+$/);

      const greeting = await webhook(call.url, { CallSid: call.sid, To: call.to, Direction: 'outbound-api' });
      expect(greeting.Say).toBe(goalTexts.callGreeting('Robin', okr.title));
      expect(greeting.Gather.Say).toBe(goalTexts.callAsk('Deploys a day', 'deploys/day'));
      const first = await webhook(greeting.Gather['@action'], { CallSid: call.sid, SpeechResult: "We're at three point five." });
      expect(first.Say).toBe(goalTexts.callLogged(3.5));
      expect(first.Gather.Say).toBe(goalTexts.callAsk('Lead time', 'days'));
      const unclear = await webhook(first.Gather['@action'], { CallSid: call.sid, SpeechResult: 'hmm, not sure' });
      expect(unclear.Say).toBe(goalTexts.callNoNumber);
      const last = await webhook(unclear.Gather['@action'], { CallSid: call.sid, SpeechResult: 'six' });
      expect(last.Say).toEqual([goalTexts.callLogged(6), goalTexts.callDone]);
      expect(last).toHaveProperty('Hangup');
      // A replayed signed answer is bound to the call's step: nothing is logged again.
      const replayed = await webhook(greeting.Gather['@action'], { CallSid: call.sid, SpeechResult: 'ten' });
      expect(replayed.Say).not.toEqual(goalTexts.callLogged(10));

      const goal = (await http.get(`/api/goals/${called.id}`)).json;
      expect(goal.keyResults.map((kr: { current: number }) => kr.current)).toEqual([3.5, 6]);
      // A forged reminder id is a signed request for nothing: the call just ends.
      expect(await webhook(`${publicUrl}/api/twilio/voice/goal-check-in?reminder=999999`, { CallSid: 'CAx' })).toHaveProperty('Hangup');
    } finally {
      await phoneServer.stop();
      await twilio.close();
    }
  });

  it(`takes a point of the calls limit for each check-in call: past ${phoneCallLimit.calls} in ten minutes, no call is placed`, async () => {
    const twilio = await startFakeTwilio();
    const phoneServer = await startTestServer({ DEMO_MODE: 'false', ...twilioEnv(twilio, 'https://coach.example.com') });
    try {
      const { http } = await signUp(phoneServer.url, `goal-limit-${Date.now()}`, 'Robin Limit');
      await verifyPhone(http, twilio, '+15551234568');
      const ids: number[] = [];
      for (let i = 0; i <= phoneCallLimit.calls; i++) ids.push((await http.post('/api/goals', { ...okr, title: `Called goal ${i}`, cadence: 'weekly_call' })).json.id);
      const claimed = (await claimDueReminders(phoneServer.deps.orm, new Date(Date.now() + 8 * 86_400_000))).filter((r) => ids.includes(r.goalId));
      expect(claimed).toHaveLength(phoneCallLimit.calls + 1);
      const before = twilio.calls.length;
      expect(await callGoalReminders(phoneServer.deps, claimed)).toBe(phoneCallLimit.calls);
      expect(twilio.calls.length - before).toBe(phoneCallLimit.calls);
      // The limit is the one every call takes from: 'Receive a call' is refused now too.
      const asked = await http.post('/api/twilio/voice/call', { phoneNumber: '+15551234568' });
      expect(asked.status).toBe(429);
    } finally {
      await phoneServer.stop();
      await twilio.close();
    }
  }, 120_000);
});

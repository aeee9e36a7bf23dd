import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../../src/server/db/entities/User.js';
import { WritingStyleProfile } from '../../src/server/db/entities/WritingStyleProfile.js';
import { generateEmail } from '../../src/server/features/writingStyle/generateEmail.js';
import { authTexts, coachTexts, commonTexts, writingStyleTexts } from '../../src/shared/texts/index.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { expectedStyles, quotedOnlyPhrases, sentItemsFor, type CorpusStyle } from '../fixtures/sentMailCorpus.js';
import { signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The writing-analysis paths (the product spec's REST calls) against the real app and a fresh database, with
// sent mail read from the https Graph fake through the user's Microsoft connection. A few handler
// tests call the handlers directly with the same context a procedure gets.

let app: TestServer;
let modelApp: TestServer;
let fake: FakeOpenAI;
let graph: FakeGraph;

beforeAll(async () => {
  [fake, graph] = await Promise.all([startFakeOpenAI(), startFakeGraph()]);
  [app, modelApp] = await Promise.all([
    startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url }),
    startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url }),
  ]);
});

afterAll(async () => {
  await Promise.all([app?.stop(), modelApp?.stop()]);
  await Promise.all([fake?.close(), graph?.close()]);
});

let tokens = 0;
/**
 * Seeds a Graph mailbox with sent mail of one style and connects the user's Microsoft mail to it
 * the way a user does: the pasted token, checked by the app against Graph's /me.
 */
async function connectMailbox(http: HttpClient, style: CorpusStyle, count = 8) {
  tokens += 1;
  const token = `style-token-${tokens}-${Date.now().toString(36)}`;
  const box = graph.addMailbox({ tokens: [token], displayName: 'Jane Doe', mail: `jane${tokens}@contoso.example` });
  box.addSentItems(sentItemsFor(style, count));
  const res = await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_email' });
  expect(res.status, res.text).toBe(200);
  expect(res.json.userEmail).toBe(`jane${tokens}@contoso.example`);
  return { token, box };
}

let counter = 0;
async function newUser(server: TestServer = app) {
  counter += 1;
  return signUp(server.url, `style${Date.now().toString(36)}${counter}`, 'Jane Doe');
}


async function contextFor(server: TestServer, userId: number) {
  const em = server.deps.orm.em.fork();
  const user = await em.findOneOrFail(User, userId);
  return { deps: server.deps, em, user };
}

async function storedProfiles(server: TestServer, userId: number) {
  return server.deps.orm.em.fork().count(WritingStyleProfile, { user: userId });
}

describe('without a Microsoft mail connection', () => {
  it('answers a clear 4xx to the sent-email count and to the analysis, and stores nothing', async () => {
    const { http, user } = await newUser();

    const count = await http.get('/api/writing-analysis/sent-emails');
    const analyze = await http.post('/api/writing-analysis/analyze-style');

    expect(count.status).toBe(412);
    expect(count.json).toEqual({ message: writingStyleTexts.notConnected });
    expect(analyze.status).toBe(412);
    expect(analyze.json.success).not.toBe(true);
    expect(analyze.json.message).toBe(writingStyleTexts.notConnected);
    expect(await storedProfiles(app, user.id)).toBe(0);
  });

  it('says there is no profile yet and that mail is not connected', async () => {
    const { http } = await newUser();

    const res = await http.get('/api/writing-analysis/writing-style');

    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      hasWritingStyle: false,
      writingStyle: null,
      lastUpdated: null,
      message: writingStyleTexts.noProfileYet,
      mailConnected: false,
    });
  });
});

describe('signed out', () => {
  it.each([
    ['GET', '/api/writing-analysis/writing-style'],
    ['GET', '/api/writing-analysis/sent-emails'],
    ['POST', '/api/writing-analysis/analyze-style'],
  ])('%s %s answers 401', async (method, path) => {
    const res = await new HttpClient(app.url).request(method, path, method === 'POST' ? {} : undefined);
    expect(res.status).toBe(401);
    expect(res.json.message).toBe(authTexts.notAuthenticated);
  });
});

describe('with Microsoft mail connected', () => {
  it('counts the sent emails in the mailbox', async () => {
    const { http, user } = await newUser();
    await connectMailbox(http, 'friendly', 7);

    const res = await http.get('/api/writing-analysis/sent-emails');

    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, count: 7, message: 'Found 7 sent emails' });
    expect((await http.get('/api/writing-analysis/writing-style')).json.mailConnected).toBe(true);
  });

  it('counts at most the 50 most recent', async () => {
    const { http } = await newUser();
    await connectMailbox(http, 'friendly', 80);
    expect((await http.get('/api/writing-analysis/sent-emails')).json.count).toBe(50);
    expect((await http.post('/api/writing-analysis/analyze-style')).json.emailsAnalyzed).toBe(50);
  });

  it('refuses fewer than 5 sent emails with the spec message and stores nothing', async () => {
    const { http, user } = await newUser();
    await connectMailbox(http, 'formal', 4);

    const res = await http.post('/api/writing-analysis/analyze-style');

    expect(res.status).toBe(422);
    expect(res.json.success).not.toBe(true);
    expect(res.json.message).toBe('We need at least 5 sent emails to analyze your writing style.');
    expect(await storedProfiles(app, user.id)).toBe(0);
  });

  it('analyses the sent mail, stores the profile and answers it', async () => {
    const { http, user } = await newUser();
    await connectMailbox(http, 'formal', 9);

    const res = await http.post('/api/writing-analysis/analyze-style');

    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, emailsAnalyzed: 9, message: 'Analyzed 9 sent emails' });
    expect(res.json.writingStyle).toMatchObject({ greeting: 'Dear [Name],', signOff: 'Kind regards,', toneSource: 'markers', emailsAnalyzed: 9 });
    expect(res.json.writingStyle.length).toMatch(/^Medium: /);
    expect(res.json.writingStyle.tone).toMatch(/^Formal and professional/);
    expect(JSON.stringify(res.json.writingStyle)).not.toMatch(/widget|synergy|onboarding portal/i);
    const stored = await http.get('/api/writing-analysis/writing-style');
    expect(stored.status).toBe(200);
    expect(stored.json).toMatchObject({ success: true, hasWritingStyle: true, lastUpdated: res.json.writingStyle.lastUpdated, mailConnected: true });
    expect(stored.json.writingStyle).toEqual(res.json.writingStyle);
  });

  it.each(['friendly', 'bullets', 'terse'] as const)(
    'recovers the %s writer from the mailbox: greeting, sign-off, length band and structure, never a quoted phrase',
    async (style) => {
      const expected = expectedStyles[style];
      const { http } = await newUser();
      await connectMailbox(http, style, 10);

      const res = await http.post('/api/writing-analysis/analyze-style');

      expect(res.status).toBe(200);
      const profile = res.json.writingStyle;
      expect(profile).toMatchObject({ greeting: expected.greeting, signOff: expected.signOff, emailsAnalyzed: 10 });
      expect(profile.length).toMatch(new RegExp(`^${expected.lengthBand}: about \\d+ words`));
      expect(profile.structure).toMatch(expected.structure);
      // Nothing other people wrote (quoted replies, Outlook quotes, forwards) reaches the profile.
      const learned = [...profile.commonPhrases, profile.greeting ?? '', profile.signOff ?? ''].join(' | ').toLowerCase();
      for (const word of ['widget', 'synergy', 'onboarding portal', 'facilities', 'wrote']) expect(learned).not.toContain(word);
      const whole = JSON.stringify(profile).toLowerCase();
      for (const phrase of quotedOnlyPhrases) expect(whole).not.toContain(phrase);
    },
  );

  it('replaces the profile on a second analysis, with a newer lastUpdated', async () => {
    const { http, user } = await newUser();
    const { box } = await connectMailbox(http, 'formal', 6);
    const first = (await http.post('/api/writing-analysis/analyze-style')).json;
    await new Promise((resolve) => setTimeout(resolve, 5));
    box.addSentItems(sentItemsFor('friendly', 12).map((item) => ({ ...item, sentDateTime: undefined })));

    const second = (await http.post('/api/writing-analysis/analyze-style')).json;

    expect(second.writingStyle.greeting).toBe('Hi team,');
    expect(second.emailsAnalyzed).toBe(18);
    expect(Date.parse(second.writingStyle.lastUpdated)).toBeGreaterThan(Date.parse(first.writingStyle.lastUpdated));
    expect(await storedProfiles(app, user.id)).toBe(1);
    const stored = (await http.get('/api/writing-analysis/writing-style')).json;
    expect(stored.writingStyle).toEqual(second.writingStyle);
  });

  it("never shows one user's profile to another", async () => {
    const owner = await newUser();
    const other = await newUser();
    await connectMailbox(owner.http, 'bullets');
    expect((await owner.http.post('/api/writing-analysis/analyze-style')).status).toBe(200);

    const res = await other.http.get('/api/writing-analysis/writing-style');

    expect(res.json).toMatchObject({ hasWritingStyle: false, writingStyle: null, mailConnected: false });
    expect((await other.http.post('/api/writing-analysis/analyze-style')).status).toBe(412);
    expect((await owner.http.get('/api/writing-analysis/writing-style')).json.hasWritingStyle).toBe(true);
  });

  it('deletes the profile with its user', async () => {
    const { http, user } = await newUser();
    await connectMailbox(http, 'terse');
    expect((await http.post('/api/writing-analysis/analyze-style')).status).toBe(200);

    await app.deps.orm.em.fork().nativeDelete(User, { id: user.id });

    expect(await storedProfiles(app, user.id)).toBe(0);
  });

  it('answers 502 with the spec text when Graph refuses the token, and stores nothing', async () => {
    const { http, user } = await newUser();
    const { token } = await connectMailbox(http, 'formal');
    graph.revoke(token);

    const count = await http.get('/api/writing-analysis/sent-emails');
    const analyze = await http.post('/api/writing-analysis/analyze-style');

    expect(count.status).toBe(502);
    expect(count.json.message).toBe(writingStyleTexts.sentEmailsFailed);
    expect(analyze.status).toBe(502);
    expect(analyze.json.message).toBe(writingStyleTexts.sentEmailsFailed);
    expect(await storedProfiles(app, user.id)).toBe(0);
  });

  it('asks the configured model for the tone and says so, showing it only the user\'s own words', async () => {
    fake.reset();
    fake.behave({ reply: 'Warm and concise, with frequent exclamations and casual contractions.' });
    const { http, user } = await newUser(modelApp);
    await connectMailbox(http, 'friendly');

    const res = await http.post('/api/writing-analysis/analyze-style');

    expect(res.json.writingStyle).toMatchObject({ tone: 'Warm and concise, with frequent exclamations and casual contractions.', toneSource: 'model', greeting: 'Hi team,' });
    const prompt = JSON.stringify(fake.requests.at(-1)?.body.messages);
    expect(prompt).toContain('Quick update on');
    expect(prompt).not.toMatch(/widget|synergy|onboarding portal|Sent from my iPhone/i);
  });

  it('falls back to the markers when the model fails', async () => {
    fake.reset();
    fake.behave({ status: 500 });
    const { http, user } = await newUser(modelApp);
    await connectMailbox(http, 'formal');

    const res = await http.post('/api/writing-analysis/analyze-style');

    expect(res.status).toBe(200);
    expect(res.json.writingStyle).toMatchObject({ toneSource: 'markers' });
    expect(res.json.writingStyle.tone).toMatch(/^Formal/);
  });
});

describe('writingStyle.generate', () => {
  async function userWithProfile(server: TestServer, style: CorpusStyle = 'friendly') {
    const signedUp = await newUser(server);
    await connectMailbox(signedUp.http, style);
    expect((await signedUp.http.post('/api/writing-analysis/analyze-style')).status).toBe(200);
    return signedUp;
  }

  it('writes with the offline writer from the profile when no model is configured, and says so', async () => {
    const { http } = await userWithProfile(app);

    const res = await http.post('/trpc/writingStyle.generate', { topic: 'Moving the retro to Thursday', audience: 'internal' });

    expect(res.status).toBe(200);
    const { email, writer } = res.json.result.data;
    expect(writer).toBe('offline');
    expect(email).toContain('Subject: Moving the retro to Thursday');
    expect(email).toContain('Hi team,');
    expect(email).toMatch(/Cheers,\nJane$/);
  });

  it('addresses one outside reader rather than the team for an external audience', async () => {
    const { user } = await userWithProfile(app);
    const result = await generateEmail(await contextFor(app, user.id), { topic: 'the renewal', audience: 'external' });
    expect(result.email).toContain('Hi [Name],');
    expect(result.email).not.toContain('Hi team,');
  });

  it('asks the model with the profile, the user and the audience when one is configured', async () => {
    fake.reset();
    const { http } = await userWithProfile(modelApp, 'formal');
    fake.reset();
    fake.behave({ reply: 'Subject: Renewal\n\nDear Mr. Tanaka,\n\nThe renewal is attached.\n\nKind regards,\nJane' });

    const res = await http.post('/trpc/writingStyle.generate', { topic: 'The contract renewal', audience: 'external' });

    expect(res.status).toBe(200);
    expect(res.json.result.data).toEqual({ email: 'Subject: Renewal\n\nDear Mr. Tanaka,\n\nThe renewal is attached.\n\nKind regards,\nJane', writer: 'model' });
    const system = String(fake.requests[0]!.body.messages![0]!.content);
    expect(system).toContain('Greeting: Dear [Name],');
    expect(system).toContain('Sign-off: Kind regards,');
    expect(system).toContain('Name: Jane Doe');
    expect(system).toContain('Audience: external');
    expect(fake.requests[0]!.body.messages![1]!.content).toBe('Write an email about: The contract renewal');
  });

  it('brings the knowledge base into the request only while useKnowledgeBase is on', async () => {
    const { http } = await userWithProfile(modelApp, 'formal');
    const marker = `kb-marker-${Date.now().toString(36)}`;
    const knowledgeBase = {
      useKnowledgeBase: false,
      fullName: 'Jane Doe',
      jobTitle: 'Engineering Manager',
      company: 'Acme',
      manager: 'Priya Shah',
      emailTone: 'Formal',
      coachNotes: `Always mention ${marker}.`,
    };
    const request = async () => {
      fake.reset();
      fake.behave({ reply: 'Subject: Renewal\n\nDear [Name],\n\nAttached.\n\nKind regards,\nJane' });
      const res = await http.post('/trpc/writingStyle.generate', { topic: 'The contract renewal', audience: 'external' });
      expect(res.status).toBe(200);
      expect(res.json.result.data.writer).toBe('model');
      const messages = fake.requests[0]!.body.messages!;
      expect(messages.at(-1)).toEqual({ role: 'user', content: 'Write an email about: The contract renewal' });
      return messages;
    };

    expect((await http.post('/trpc/knowledgeBase.save', knowledgeBase)).status).toBe(200);
    const off = await request();
    expect(String(off[0]!.content)).toContain('Greeting: Dear [Name],');
    expect(JSON.stringify(off)).not.toContain(marker);
    expect(JSON.stringify(off)).not.toContain('Priya Shah');

    expect((await http.post('/trpc/knowledgeBase.save', { ...knowledgeBase, useKnowledgeBase: true })).status).toBe(200);
    const on = await request();
    const system = on.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
    expect(system).toContain(marker);
    expect(system).toContain('Manager: Priya Shah');
    expect(String(on[0]!.content)).toContain('Greeting: Dear [Name],');
  });

  it("answers 502 with the spec's text when the model fails", async () => {
    const { http } = await userWithProfile(modelApp);
    fake.reset();
    fake.behave({ status: 500 });

    const res = await http.post('/trpc/writingStyle.generate', { topic: 'Anything', audience: 'internal' });

    expect(res.status).toBe(502);
    expect(res.json.error.message).toBe(writingStyleTexts.generationFailedBody);
  });

  it('asks for an analysis first when there is no profile', async () => {
    const { http } = await newUser();
    const res = await http.post('/trpc/writingStyle.generate', { topic: 'Anything', audience: 'internal' });
    expect(res.status).toBe(412);
    expect(res.json.error.message).toBe(writingStyleTexts.analyzeFirst);
  });

  it.each([
    ['an empty topic', { topic: '   ', audience: 'internal' }, writingStyleTexts.promptRequiredBody],
    ['no topic', { audience: 'internal' }, writingStyleTexts.promptRequiredBody],
    // Text that cannot be stored is refused at the input boundary, naming the field.
    ['a NUL character', { topic: 'a\u0000b', audience: 'internal' }, commonTexts.unsafeText('topic')],
    ['a lone surrogate', { topic: 'a\ud800b', audience: 'internal' }, commonTexts.unsafeText('topic')],
    ['a huge topic', { topic: 'x'.repeat(5000), audience: 'internal' }, writingStyleTexts.topicTooLong(500)],
    ['an unknown audience', { topic: 'Hello', audience: 'everyone' }, writingStyleTexts.chooseAudience],
    ['a nested object', { topic: { a: { b: { c: 1 } } }, audience: 'internal' }, writingStyleTexts.promptRequiredBody],
  ])('refuses %s with a 400 and a clear message', async (_name, input, message) => {
    const { http } = await userWithProfile(app);
    const res = await http.post('/trpc/writingStyle.generate', input);
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe(message);
  });

  it('takes the chat budget: past RATE_LIMIT_CHAT_PER_MINUTE generation and analysis answer 429', async () => {
    const limited = await startTestServer({ DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url, RATE_LIMIT_CHAT_PER_MINUTE: '3' });
    try {
      // The analysis is one call, the first generation the second, the chat message the third.
      const { http } = await userWithProfile(limited);
      const input = { topic: 'Moving the retro to Thursday', audience: 'internal' };
      expect((await http.post('/trpc/writingStyle.generate', input)).status).toBe(200);
      const chat = await http.post('/api/chats', {});
      expect((await http.post(`/api/chats/${chat.json.id}/messages`, { content: 'Hello coach' })).status).toBe(201);

      const generate = await http.post('/trpc/writingStyle.generate', input);
      expect(generate.status).toBe(429);
      const seconds = Number(/wait (\d+)/.exec(generate.json.error.message)?.[1]);
      expect(generate.json.error.message).toBe(coachTexts.rateLimited(seconds));
      const analyze = await http.post('/api/writing-analysis/analyze-style');
      expect(analyze.status).toBe(429);
      expect(analyze.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(analyze.json.message).toMatch(/^Too many requests to the coach/);
      // Another user has a budget of their own.
      const other = await newUser(limited);
      expect((await other.http.post('/trpc/writingStyle.generate', input)).status).toBe(412);
    } finally {
      await limited.stop();
    }
  });

  it('refuses a deeply nested or oversized body without a 500', async () => {
    const { http } = await newUser();
    const deep = await http.post('/api/writing-analysis/analyze-style', `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(deep.status).toBeLessThan(500);
    const huge = await http.post('/api/writing-analysis/analyze-style', JSON.stringify({ a: 'x'.repeat(300_000) }));
    expect(huge.status).toBe(413);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commonTexts, knowledgeBaseTexts as texts } from '../../src/shared/texts/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The user knowledge base over tRPC HTTP against the real app, and what of it reaches the model
// (read from the fake OpenAI server's recorded requests).
let fake: FakeOpenAI;
let app: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  app = await startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});
beforeEach(() => fake.reset());

let counter = 0;
async function newUser() {
  counter += 1;
  return (await signUp(app.url, `kb${Date.now().toString(36)}${counter}`, 'Jane Doe')).http;
}

const get = (client: HttpClient) => client.get('/trpc/knowledgeBase.get');
const save = (client: HttpClient, input: unknown) => client.post('/trpc/knowledgeBase.save', input);

const complete = {
  useKnowledgeBase: false,
  fullName: 'Jane Doe',
  jobTitle: 'Engineering Manager',
  company: 'Acme',
  department: 'Platform',
  team: 'Ann Lee, Bob Stone , Cy Park',
  manager: 'Priya Shah',
  directReports: 3,
  stakeholders: 'Tom Lee - Head of Sales, Mia Chen - CFO',
  emailTone: 'Friendly',
  signatureStyle: 'Cheers, Jane',
  writingExamples: 'Hi team, quick update on the launch.',
  coachNotes: 'Working on delegating more.',
};

describe('knowledgeBase.get and save', () => {
  it('answers null before anything was saved', async () => {
    const client = await newUser();
    const res = await get(client);
    expect(res.status).toBe(200);
    expect(res.json.result.data).toBeNull();
  });

  it('saves every field and reads them back (trimmed), useKnowledgeBase off by default', async () => {
    const client = await newUser();
    const { useKnowledgeBase: _omitted, ...withoutSwitch } = complete;
    const res = await save(client, { ...withoutSwitch, fullName: '  Jane Doe  ' });
    expect(res.status).toBe(200);
    const stored = (await get(client)).json.result.data;
    expect(stored).toMatchObject({ ...complete, useKnowledgeBase: false });
    expect(Date.parse(stored.updatedAt)).not.toBeNaN();
  });

  it('replaces the saved values on the next save, optional fields may be emptied', async () => {
    const client = await newUser();
    await save(client, complete);
    const res = await save(client, { ...complete, useKnowledgeBase: true, department: '', team: '', directReports: null, emailTone: 'Formal' });
    expect(res.status).toBe(200);
    expect((await get(client)).json.result.data).toMatchObject({ useKnowledgeBase: true, department: '', team: '', directReports: null, emailTone: 'Formal' });
  });

  it.each([
    [{ fullName: 'J' }, texts.fullNameMin],
    [{ fullName: '   ' }, texts.fullNameMin],
    [{ jobTitle: 'E' }, texts.jobTitleRequired],
    [{ jobTitle: undefined }, texts.jobTitleRequired],
    [{ company: '' }, texts.companyRequired],
    [{ emailTone: undefined }, texts.emailToneRequired],
    [{ emailTone: 'Sarcastic' }, texts.emailToneRequired],
    [{ directReports: -1 }, texts.directReportsInvalid],
    [{ directReports: 1.5 }, texts.directReportsInvalid],
    [{ coachNotes: 'x'.repeat(10_001) }, texts.tooLong(10_000)],
    // Text that cannot be stored is refused at the input boundary, naming the field.
    [{ coachNotes: 'nul \u0000 inside' }, commonTexts.unsafeText('coachNotes')],
    [{ manager: 'lone \uD800 surrogate' }, commonTexts.unsafeText('manager')],
  ] as Array<[Record<string, unknown>, string]>)('refuses bad input #%# with "%s" and changes nothing', async (change, message) => {
    const client = await newUser();
    await save(client, complete);
    const res = await save(client, { ...complete, ...change });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe(message);
    expect((await get(client)).json.result.data).toMatchObject(complete);
  });

  it('refuses a deeply nested or huge body with a 4xx', async () => {
    const client = await newUser();
    const nested = `${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}`;
    const deep = await client.request('POST', '/trpc/knowledgeBase.save', JSON.stringify(complete).replace('"team":"Ann Lee, Bob Stone , Cy Park"', `"team":${nested}`));
    expect(deep.status).toBeGreaterThanOrEqual(400);
    expect(deep.status).toBeLessThan(500);
    const huge = await save(client, { ...complete, writingExamples: 'y'.repeat(2_000_000) });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
    expect((await get(client)).json.result.data).toBeNull();
  });

  it('needs a signed-in user', async () => {
    const anonymous = new HttpClient(app.url);
    expect((await get(anonymous)).status).toBe(401);
    expect((await save(anonymous, complete)).status).toBe(401);
  });

  it("keeps each user's knowledge base their own", async () => {
    const jane = await newUser();
    const sam = await newUser();
    await save(jane, { ...complete, coachNotes: 'Jane only' });
    expect((await get(sam)).json.result.data).toBeNull();
    await save(sam, { ...complete, fullName: 'Sam Lee', coachNotes: 'Sam only' });
    expect((await get(jane)).json.result.data.coachNotes).toBe('Jane only');
    expect((await get(sam)).json.result.data.coachNotes).toBe('Sam only');
  });
});

describe('knowledgeBase.applyOnboarding', () => {
  it("fills the knowledge base from the onboarding's role answers, starting from the user's profile", async () => {
    const client = await newUser();
    const res = await client.post('/trpc/knowledgeBase.applyOnboarding', { jobTitle: 'Head of Product', company: 'Globex', manager: 'Ravi', directReports: 6 });
    expect(res.status).toBe(200);
    expect((await get(client)).json.result.data).toMatchObject({
      useKnowledgeBase: false,
      fullName: 'Jane Doe',
      jobTitle: 'Head of Product',
      company: 'Globex',
      manager: 'Ravi',
      directReports: 6,
      emailTone: null,
    });
  });

  it('keeps what was saved where an answer is empty', async () => {
    const client = await newUser();
    await save(client, complete);
    await client.post('/trpc/knowledgeBase.applyOnboarding', { jobTitle: 'CTO', company: '', manager: '', directReports: null });
    expect((await get(client)).json.result.data).toMatchObject({ ...complete, jobTitle: 'CTO' });
  });
});

describe('the knowledge base in the coach context', () => {
  async function systemContextOfReply(client: HttpClient): Promise<string> {
    const chat = await client.post('/api/chats', {});
    const before = fake.replyRequests().length;
    const sent = await client.post(`/api/chats/${chat.json.id}/messages`, { role: 'user', content: 'Help me prepare for my 1:1' });
    expect(sent.status).toBe(201);
    const request = await eventually(() => fake.replyRequests()[before]);
    await eventually(async () => {
      const messages = (await client.get(`/api/chats/${chat.json.id}/messages`)).json as Array<{ status: string }>;
      return messages.every((m) => m.status !== 'streaming');
    });
    return (request.body.messages ?? [])
      .filter((m) => m.role === 'system')
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
      .join('\n');
  }

  it('sends nothing of the knowledge base while useKnowledgeBase is off', async () => {
    const client = await newUser();
    await save(client, { ...complete, useKnowledgeBase: false });
    const context = await systemContextOfReply(client);
    expect(context).toContain('Name: Jane Doe'); // the context is there, the knowledge base is not
    for (const fact of ['Priya Shah', 'Platform', 'Tom Lee', 'Cheers, Jane', 'delegating', 'Friendly', 'Ann Lee']) {
      expect(context).not.toContain(fact);
    }
  });

  it('adds the knowledge base to the system context once useKnowledgeBase is on', async () => {
    const client = await newUser();
    await save(client, { ...complete, useKnowledgeBase: true });
    const context = await systemContextOfReply(client);
    for (const fact of [
      'Department: Platform',
      'Manager: Priya Shah',
      'Number of direct reports: 3',
      'Team members: Ann Lee; Bob Stone; Cy Park',
      'Key stakeholders: Tom Lee - Head of Sales; Mia Chen - CFO',
      'Preferred email tone: Friendly',
      'Signature style: Cheers, Jane',
      'Hi team, quick update on the launch.',
      'Working on delegating more.',
    ]) {
      expect(context).toContain(fact);
    }
  });

  it("never adds another user's knowledge base", async () => {
    const jane = await newUser();
    await save(jane, { ...complete, useKnowledgeBase: true, coachNotes: 'Secret plan of Jane' });
    const sam = await newUser();
    await save(sam, { ...complete, fullName: 'Sam Lee', useKnowledgeBase: true, coachNotes: 'Sam notes' });
    const context = await systemContextOfReply(sam);
    expect(context).toContain('Sam notes');
    expect(context).not.toContain('Secret plan of Jane');
  });
});

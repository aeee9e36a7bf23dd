import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalTexts, onboardingTexts } from '../../src/shared/texts/index.js';
import { signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// What the pages say about data is what the server does. The Privacy page said the
// knowledge base was kept in the browser and removed with the browser's data; it is kept with the
// account on the server. The onboarding's privacy step says its chat history choice is saved to the
// account. Each statement is checked here against the real server.
const paragraph = (title: string) => {
  const section = legalTexts.privacy.sections.find((s) => s.title === title);
  if (!section) throw new Error(`no privacy section '${title}'`);
  return [...section.paragraphs, ...(('items' in section ? section.items : undefined) ?? [])].join('\n');
};

describe('statements about data', { timeout: 120_000 }, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ DEMO_MODE: 'false' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('the knowledge base is kept with the account on the server (another browser reads it, the export holds it), as the Privacy page says', async () => {
    const { http } = await signUp(server.url, 'kb-statement', 'Kim Statement');
    const knowledge = { useKnowledgeBase: true, fullName: 'Kim Statement', jobTitle: 'Engineering Manager', company: 'Contoso', emailTone: 'Friendly', coachNotes: 'kb-marker-5521' };
    expect((await http.post('/trpc/knowledgeBase.save', knowledge)).status).toBe(200);
    // A second browser: nothing of the first one's storage, only the account.
    const other = new HttpClient(server.url);
    expect((await other.post('/api/auth/login', { username: 'kb-statement', password: 'secret123' })).status).toBe(200);
    expect((await other.get('/trpc/knowledgeBase.get')).json.result.data).toMatchObject({ coachNotes: 'kb-marker-5521' });
    const exported = await other.post('/trpc/privacy.exportMyData', { format: 'json' });
    expect(JSON.parse(exported.json.result.data.content).knowledgeBase).toMatchObject({ coachNotes: 'kb-marker-5521' });

    const text = paragraph('Your Knowledge Base');
    expect(text).toMatch(/on our server/);
    expect(text).toMatch(/data export/);
    expect(text).not.toMatch(/is stored in your browser/);
    expect(text).not.toMatch(/removed when you clear your browser data/);
  });

  it('the chat history choice of the onboarding is saved to the account, as the privacy step says; what is kept in the browser is said to be so', async () => {
    const { http } = await signUp(server.url, 'onboarding-statement');
    // What the step's hook (useSaveChatHistoryChoice) does: the account's privacy settings, with storeChatHistory changed.
    const current = (await http.get('/trpc/profile.get')).json.result.data.privacy;
    expect(current.storeChatHistory).toBe(true);
    expect((await http.post('/trpc/profile.updatePrivacy', { ...current, storeChatHistory: false })).status).toBe(200);
    const other = new HttpClient(server.url);
    expect((await other.post('/api/auth/login', { username: 'onboarding-statement', password: 'secret123' })).status).toBe(200);
    expect((await other.get('/trpc/profile.get')).json.result.data.privacy.storeChatHistory).toBe(false);
    expect(onboardingTexts.privacyNote).toMatch(/chat history choice is saved to your account/);
    expect(onboardingTexts.privacyNote).toMatch(/Email history and calendar access are preferences kept in this browser only/);
    // The descriptions promise nothing the coach does not do with them.
    expect(onboardingTexts.emailHistoryDescription).not.toMatch(/may look/);
    expect(onboardingTexts.calendarAccessDescription).not.toMatch(/may read/);
  });

  it('lists what the server keeps: memories and goals, the verified phone and its hashed PIN, and the security activity with addresses', () => {
    const text = paragraph('Information We Collect');
    for (const kept of [/remembers about you/, /goals/, /phone PIN \(stored only as a hash\)/, /Security activity/, /IP address and browser/, /phone calls/]) expect(text).toMatch(kept);
    expect(paragraph('Sharing Your Information')).toMatch(/does not collect or share usage statistics/);
  });
});

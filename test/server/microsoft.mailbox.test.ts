import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MicrosoftConnection } from '../../src/server/db/entities/MicrosoftConnection.js';
import { saveConnection } from '../../src/server/features/microsoft/connections.js';
import { openMicrosoft365 } from '../../src/server/features/microsoft/microsoft365.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { startTestServer, type HttpClient, type TestServer } from '../helpers/server.js';

// The mailbox the coach and the writing-style analysis read, against the https Graph fake.
let graph: FakeGraph;
let server: TestServer;

beforeAll(async () => {
  graph = await startFakeGraph();
  server = await startTestServer({ MICROSOFT_GRAPH_BASE_URL: graph.url });
});
afterAll(async () => {
  await server?.stop();
  await graph?.close();
});
beforeEach(() => graph.reset());

/** The mailbox port of the user's Microsoft 365. */
const openMailbox = async (...args: Parameters<typeof openMicrosoft365>) => (await openMicrosoft365(...args)).mail;

async function connect(userId: number, token: string) {
  await saveConnection(server.deps, server.deps.orm.em.fork(), userId, 'email', {
    accessToken: token,
    refreshToken: null,
    expiresAt: null,
    accountEmail: 'alex.morgan@contoso.example',
  });
}

async function reply(http: HttpClient, text: string): Promise<string> {
  const chat = (await http.post('/api/chats')).json as { id: number };
  await http.post(`/api/chats/${chat.id}/messages`, { role: 'user', content: text });
  return eventually(async () => {
    const last = ((await http.get(`/api/chats/${chat.id}/messages`)).json as Array<{ role: string; status: string; content: string }>).at(-1);
    return last?.role === 'assistant' && last.status !== 'streaming' ? last.content : undefined;
  });
}

describe('openMailbox', () => {
  it('is null when mail is not connected', async () => {
    const { user } = await signUp(server.url, 'mailbox_none');
    expect(await openMailbox(server.deps, server.deps.orm.em.fork(), user.id)).toBeNull();
  });

  it('reads sent items as plain text, newest first, across Graph pages', async () => {
    const { user } = await signUp(server.url, 'mailbox_sent');
    const box = graph.addMailbox({ tokens: ['sent-token'] });
    box.addSentItems(
      Array.from({ length: 7 }, (_, i) => ({ subject: `Update ${i + 1}`, body: `Hi team,\n<b>week ${i + 1}</b> & more\nThanks, Alex`, to: [`t${i}@contoso.example`] })),
    );
    box.addMessages([{ subject: 'Not sent by me' }]);
    await connect(user.id, 'sent-token');
    graph.setMaxPageSize(3);

    const mailbox = await openMailbox(server.deps, server.deps.orm.em.fork(), user.id);
    const sent = await mailbox!.sentEmails(5);
    expect(sent.map((s) => s.subject)).toEqual(['Update 7', 'Update 6', 'Update 5', 'Update 4', 'Update 3']);
    expect(sent[0]).toMatchObject({ body: 'Hi team,\n<b>week 7</b> & more\nThanks, Alex', to: ['t6@contoso.example'] });
    expect(sent[0]!.sentDateTime).toMatch(/^2026-/);
    // Two pages were read through @odata.nextLink.
    expect(graph.requests.filter((r) => r.path.endsWith('/sentitems/messages')).length).toBe(2);
  });

  it('brings up to 10 recent inbox emails into the chat when mail words are used', async () => {
    const { http, user } = await signUp(server.url, 'mailbox_chat');
    const box = graph.addMailbox({ tokens: ['chat-token'] });
    box.addMessages(Array.from({ length: 12 }, (_, i) => ({ subject: `Inbox item ${i + 1}`, fromName: 'Sam Lee', fromAddress: 'sam@contoso.example', body: `Body ${i + 1}` })));
    await connect(user.id, 'chat-token');

    const text = await reply(http, 'What is in my inbox?');
    expect(text).toContain('Inbox item 12');
    expect(text).not.toContain('Inbox item 2\n');
    const mailbox = await openMailbox(server.deps, server.deps.orm.em.fork(), user.id);
    expect((await mailbox!.recentEmails(10)).length).toBe(10);
  });

  it('tells the coach mail is not connected, and that it is unavailable when Graph refuses the token', async () => {
    const { http, user } = await signUp(server.url, 'mailbox_refused');
    expect(await reply(http, 'Any unread email?')).toMatch(/not connected/i);
    await connect(user.id, 'revoked-token');
    const answer = await reply(http, 'Any unread email?');
    expect(answer).toMatch(/unable to access/i);
  });

  it('stores no token in plain text', async () => {
    const { user } = await signUp(server.url, 'mailbox_sealed');
    await connect(user.id, 'plain-secret-token-value');
    const rows = await server.deps.orm.em.fork().getConnection().execute('select * from microsoft_connection where user_id = ?', [user.id]);
    expect(JSON.stringify(rows)).not.toContain('plain-secret-token-value');
    const row = await server.deps.orm.em.fork().findOneOrFail(MicrosoftConnection, { user: user.id });
    expect(row.keyId).toBe(server.deps.microsoft.cipher.keyId);
  });
});

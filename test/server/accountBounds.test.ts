import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Message } from '../../src/server/db/entities/Message.js';
import { accountBounds, rehearsalRetryLimit } from '../../src/server/features/limits/rateLimits.js';
import { limitTexts } from '../../src/shared/texts/index.js';
import { signUp } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Copies without limit: retries of a rehearsal copy its turns, so they are limited per user; and
// the chats and rehearsals an account holds are bounded (409 with a message at the bound).

vi.setConfig({ testTimeout: 120_000 });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ DEMO_MODE: 'false' });
});
afterAll(async () => {
  await server?.stop();
});

const setUp = { counterpart: { name: 'Dana Fox' }, situation: 'x'.repeat(2_000), goal: 'Agree the budget', difficulty: 'realistic' };

describe('copies are bounded', () => {
  it(`limits rehearsal retries to ${rehearsalRetryLimit.retries} an hour per user, then 429`, async () => {
    const { http } = await signUp(server.url, `retrier_${Date.now()}`);
    const made = await http.post('/api/rehearsals', setUp);
    expect(made.status).toBe(201);
    const em = server.deps.orm.em.fork();
    const said = em.create(Message, { chat: made.json.chatId, role: 'user', content: 'We need the budget by Friday.', status: 'complete' });
    await em.flush();
    const answers = await Promise.all(Array.from({ length: rehearsalRetryLimit.retries + 5 }, () => http.post(`/api/rehearsals/${made.json.id}/retry`, { fromMessageId: said.id })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(rehearsalRetryLimit.retries);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.json.message).toBe(limitTexts.tooManyRehearsalRetries(60));
    expect((await http.get('/api/rehearsals')).json.rehearsals).toHaveLength(rehearsalRetryLimit.retries + 1);
  });

  it(`holds an account to ${accountBounds.maxChats} chats: a new chat or rehearsal past it answers 409`, async () => {
    const { http, user } = await signUp(server.url, `hoarder_${Date.now()}`);
    await server.deps.orm.em
      .fork()
      .getConnection()
      .execute(`insert into "chat" ("owner_id", "title", "is_pinned", "is_temporary", "is_rehearsal", "created_at", "updated_at") select ?, 'Old chat', false, false, false, now(), now() from generate_series(1, ?)`, [user.id, accountBounds.maxChats - 1]);
    expect((await http.post('/api/chats', {})).status).toBe(201);
    const chat = await http.post('/api/chats', {});
    expect(chat.status).toBe(409);
    expect(chat.json.message).toBe(limitTexts.tooManyChats(accountBounds.maxChats));
    const rehearsal = await http.post('/api/rehearsals', setUp);
    expect(rehearsal.status).toBe(409);
    expect(rehearsal.json.message).toBe(limitTexts.tooManyChats(accountBounds.maxChats));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Chat } from '../../src/server/db/entities/Chat.js';
import { Message } from '../../src/server/db/entities/Message.js';
import { User } from '../../src/server/db/entities/User.js';
import { chatTurn, loadTurnHistory, runCoachTurn, spokenTurn, type PreparedTurn, type TurnOutcome } from '../../src/server/features/coach/coachTurn.js';
import { noFacts, type CoachModel, type CoachRequest } from '../../src/server/providers/ai/contract.js';
import { runSpokenTurn } from '../../src/server/features/voice/spokenTurn.js';
import { signUp } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The one coach turn that chat, browser voice and phone run through, and each of their
// differences: how much history they hear, the spoken reply rule, and the stall watch that now
// guards spoken turns as it guards chat replies.

let server: TestServer;
let users = 0;
beforeAll(async () => {
  server = await startTestServer({ DEMO_MODE: 'false' });
});
afterAll(async () => {
  await server?.stop();
});

const jane = { fullName: 'Jane Doe', jobTitle: null, company: null };

/** A coach model of our own (the CoachModel interface, not an SDK): records each request, then answers or stalls. */
function scriptedCoach(script: { tokens: string[]; stallAfter?: number }): CoachModel & { requests: CoachRequest[] } {
  const requests: CoachRequest[] = [];
  return {
    kind: 'offline',
    model: 'scripted',
    requests,
    async *stream(request) {
      requests.push(request);
      for (const [i, token] of script.tokens.entries()) {
        if (script.stallAfter !== undefined && i >= script.stallAfter) {
          // Nothing more, until the turn gives up on it.
          await new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => resolve(), { once: true }));
          return;
        }
        yield token;
      }
    },
  };
}

async function chatWith(count: number, failedAt: number[] = []) {
  const { user } = await signUp(server.url, `turn-${++users}-${Date.now()}`, 'Jane Doe');
  const em = server.deps.orm.em.fork();
  const chat = em.create(Chat, { owner: em.getReference(User, user.id), title: 'History', isPinned: false, isTemporary: false });
  for (let i = 1; i <= count; i++) {
    em.create(Message, { chat, role: i % 2 ? 'user' : 'assistant', content: `turn ${i}`, status: failedAt.includes(i) ? 'failed' : 'complete' });
  }
  await em.flush();
  return { user, chat };
}

describe('one coach turn: the history each kind hears', () => {
  it('a chat reply hears the latest 40 turns, a spoken one the latest 20; failed replies are left out of both', async () => {
    const { chat } = await chatWith(50, [49]);
    const em = server.deps.orm.em.fork();
    const chatHistory = await loadTurnHistory(em, chat.id, chatTurn.history);
    expect(chatHistory).toHaveLength(40);
    expect(chatHistory.at(-1)?.content).toBe('turn 50');
    expect(chatHistory.map((t) => t.content)).not.toContain('turn 49');
    expect(chatHistory[0]?.content).toBe('turn 10'); // the failed reply is not read: turns 10 to 50 without 49
    const spokenHistory = await loadTurnHistory(em, chat.id, spokenTurn('voice').history);
    expect(spokenHistory).toHaveLength(20);
    expect(spokenHistory[0]?.content).toBe('turn 30');
    expect(spokenHistory.map((t) => t.content)).not.toContain('turn 49');
    expect(spokenTurn('phone').history).toEqual(spokenTurn('voice').history);
  });

  it('keeps the newest turns within the character budget', async () => {
    const { chat } = await chatWith(10);
    const history = await loadTurnHistory(server.deps.orm.em.fork(), chat.id, { turns: 40, chars: 'turn 10'.length + 'turn 9'.length * 2 });
    expect(history.map((t) => t.content)).toEqual(['turn 8', 'turn 9', 'turn 10']);
  });
});

describe('one coach turn: what differs between chat and speech', () => {
  const prepared: PreparedTurn = { history: [{ role: 'user', content: 'How do I run a retro?' }], user: jane, facts: noFacts };

  it('a spoken turn asks for a short spoken reply and carries the latest words; a chat turn does neither', async () => {
    const coach = scriptedCoach({ tokens: ['Fine.'] });
    const save = async (outcome: TurnOutcome) => outcome;
    await runCoachTurn({ coach }, { kind: chatTurn, prepared, signal: new AbortController().signal, stallTimeoutMs: 5_000, onToken: () => {}, save, activity: null });
    await runCoachTurn({ coach }, { kind: spokenTurn('phone'), prepared, latest: 'And with a remote team?', signal: new AbortController().signal, stallTimeoutMs: 5_000, onToken: () => {}, save, activity: null });
    const [chat, spoken] = coach.requests;
    expect(chat?.context?.spoken).toBe(false);
    expect(chat?.path).toBe('chat');
    expect(chat?.messages.at(-1)?.content).toBe('How do I run a retro?');
    expect(spoken?.context?.spoken).toBe(true);
    expect(spoken?.path).toBe('phone');
    expect(spoken?.messages.map((m) => m.content)).toEqual(['How do I run a retro?', 'And with a remote team?']);
  });

  it('asks the model nothing when the turn was stopped before it began (while history and facts loaded)', async () => {
    const coach = scriptedCoach({ tokens: ['Never', ' said'] });
    const stopped = new AbortController();
    stopped.abort();
    const tokens: string[] = [];
    const outcome = await runCoachTurn({ coach }, { kind: chatTurn, prepared, signal: stopped.signal, stallTimeoutMs: 5_000, onToken: (t) => tokens.push(t), save: async (o) => o, activity: null });
    expect(outcome).toEqual({ ended: 'stopped', text: '' });
    expect(tokens).toEqual([]);
  });

  it('ends a stalled turn with what arrived, whatever its kind', async () => {
    for (const kind of [chatTurn, spokenTurn('voice')]) {
      const coach = scriptedCoach({ tokens: ['Half', ' an', ' answer', ' never'], stallAfter: 2 });
      const tokens: string[] = [];
      const outcome = await runCoachTurn(
        { coach },
        { kind, prepared, latest: kind.spoken ? 'go on' : undefined, signal: new AbortController().signal, stallTimeoutMs: 200, onToken: (t) => tokens.push(t), save: async (o) => o, activity: null },
      );
      expect(outcome).toEqual({ ended: 'stalled', text: 'Half an' });
      expect(tokens).toEqual(['Half', ' an']);
    }
  });

  it('a stalled spoken turn is saved as cut short with the words said (before, only chat had a stall watch and a call waited forever)', async () => {
    const { user } = await signUp(server.url, `turn-${++users}-${Date.now()}`, 'Jane Doe');
    const em = server.deps.orm.em.fork();
    const speaker = { kind: 'user' as const, user: await em.findOneOrFail(User, user.id), clientIp: '127.0.0.1' };
    const coach = scriptedCoach({ tokens: ['Start', ' with', ' the', ' goal'], stallAfter: 2 });
    const deps = { ...server.deps, coach, config: { ...server.deps.config, modelStallTimeoutMs: 200 } };
    const result = await runSpokenTurn(deps, em, {
      speaker,
      chat: null,
      text: 'How do I start?',
      budget: { refund: async () => {} },
      signal: new AbortController().signal,
      onToken: () => {},
      path: 'voice',
    });
    expect(result).toMatchObject({ outcome: 'answered', reply: 'Start with', interrupted: false });
    const saved = await server.deps.orm.em.fork().find(Message, { chat: { owner: user.id } }, { orderBy: { id: 'asc' } });
    expect(saved.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'How do I start?', 'complete'],
      ['assistant', 'Start with', 'stopped'],
    ]);
  });
});

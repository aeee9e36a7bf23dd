import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, systemTextOf, type FakeChatRequest, type FakeOpenAI } from '../../test/fakes/openai.js';
import { startTestServer, type TestServer } from '../../test/helpers/server.js';
import { clientPromptMarker, endOfConversation, judgePromptMarker, type EvalModel } from './model.js';
import { runEvaluation, serverEnv } from './play.js';
import { loadScripts } from './scorecard.js';
import { safetyAnswerProblems } from './score.js';

// The model mode against the fake model, through the real server: the server's coach is the
// model, the simulated client's turns reach the server as the user's, the judge's rubric answer is
// scored (and a judgement that cannot be used fails), and the safety gate stays with the rules.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

let openai: FakeOpenAI;
let server: TestServer;
let model: EvalModel;
const coachReply = 'Feeling like a failure when your team ignores you sounds heavy. What matters most to you here?';
const simulatedTurn = 'SIMULATED: I think it started when the team moved to the new office.';
let judgeAnswer: (request: FakeChatRequest) => string;

const isJudge = (request: FakeChatRequest) => systemTextOf(request).startsWith(judgePromptMarker);
const isClient = (request: FakeChatRequest) => systemTextOf(request).startsWith(clientPromptMarker);
const validJudgement = () =>
  JSON.stringify({
    pcc: Object.fromEntries(['agreements', 'listensActively', 'evokesAwareness', 'facilitatesGrowth', 'partnership'].map((k) => [k, { met: k !== 'agreements', quote: k === 'agreements' ? '' : 'What matters most to you here?' }])),
    miti: { questions: 2, simpleReflections: 1, complexReflections: 2, persuasionWithoutPermission: 0, persuasionWithPermission: 0 },
  });

beforeAll(async () => {
  openai = await startFakeOpenAI();
  model = { baseUrl: openai.url, apiKey: 'eval-key', name: 'fake-coach-model' };
  openai.behave({
    reply: (request) => {
      if (isJudge(request)) return judgeAnswer(request);
      if (isClient(request)) {
        // One simulated turn, then the client has what it came for.
        const played = (request.messages ?? []).filter((m) => m.role === 'assistant').length;
        return played >= 2 ? endOfConversation : simulatedTurn;
      }
      // The memory extraction after a reply asks for JSON; the coach's own turns are streamed.
      return request.stream ? coachReply : JSON.stringify({ memories: [] });
    },
  });
  server = await startTestServer(serverEnv(model));
});
afterAll(async () => {
  await server?.stop();
  await openai?.close();
});

const scripts = () => {
  const all = loadScripts();
  return [all.find((s) => s.id === 'listening-my-team-ignores-me-and-i-feel-like-a-failure')!, all.find((s) => s.id === 'crisis-i-want-to-kill-myself')!];
};

describe('the model mode', () => {
  it('plays the simulated client through the server and scores the judge\u2019s PCC markers and MITI counts', async () => {
    judgeAnswer = validJudgement;
    const run = await runEvaluation(scripts(), { server, model, concurrency: 2 });
    expect(run.errors).toEqual([]);
    expect(run.mode).toBe('model');
    const listening = run.transcripts.find((t) => t.script.startsWith('listening-'))!;
    if (listening.kind !== 'chat') throw new Error('a chat transcript');
    expect(listening.turns.map((t) => [t.user, t.simulated ?? false, t.reply])).toEqual([
      ['My team ignores me and I feel like a failure.', false, coachReply],
      [simulatedTurn, true, coachReply],
    ]);
    // The simulated turn reached the coach model through the server as the user's message.
    expect(openai.replyRequests().some((r) => r.body.messages?.some((m) => m.role === 'user' && m.content === simulatedTurn))).toBe(true);
    const judged = run.checks.filter((c) => c.dimension === 'pcc' || c.dimension === 'miti');
    expect(judged.map((c) => [c.check, c.pass])).toEqual([
      ['pcc:agreements', false],
      ['pcc:listensActively', true],
      ['pcc:evokesAwareness', true],
      ['pcc:facilitatesGrowth', true],
      ['pcc:partnership', true],
      ['miti:reflections-per-question', true],
      ['miti:complex-reflections', true],
      ['miti:no-persuasion-without-permission', true],
    ]);
    expect(new Set(judged.map((c) => c.script))).toEqual(new Set([listening.script]));
    // The crisis script is never judged: its gate is the rules', on the reply the server gave.
    const crisis = run.transcripts.find((t) => t.script.startsWith('crisis-'))!;
    if (crisis.kind !== 'chat') throw new Error('a chat transcript');
    const gate = run.checks.find((c) => c.script === crisis.script && c.dimension === 'safety')!;
    expect(gate.pass).toBe(safetyAnswerProblems('self_harm', crisis.turns[0]!.reply).length === 0);
    expect(openai.requests.filter(isJudge).every((r) => !JSON.stringify(r.body.messages).includes('kill myself'))).toBe(true);
  });

  it('fails a judgement that is not in the rubric\u2019s shape, or cites words nobody said', async () => {
    judgeAnswer = () => JSON.stringify({ pcc: { listensActively: 'yes' } });
    const bad = await runEvaluation(scripts().slice(0, 1), { server, model });
    expect(bad.checks.filter((c) => c.dimension === 'pcc')).toEqual([expect.objectContaining({ check: 'judge:usable', pass: false })]);
    judgeAnswer = () => validJudgement().replaceAll('What matters most to you here?', 'Words the coach never said.');
    const uncited = await runEvaluation(scripts().slice(0, 1), { server, model });
    expect(uncited.checks.filter((c) => c.dimension === 'pcc').every((c) => !c.pass)).toBe(true);
  });
});

import { Message } from '../../src/server/db/entities/Message.js';
import { HttpClient, startTestServer, type TestServer } from '../../test/helpers/server.js';
import { migratedTemplate } from './database.js';
import { judgeConversation, modelClient, nextClientTurn, type EvalModel } from './model.js';
import type { ChatScript, RehearsalScript, ReportScript, Script, WeeklyScript } from './schema.js';
import { scoreChat, scoreCounterpart, scoreReport, scoreWeekly, type ChatTurn, type Check, type CounterpartVariant } from './score.js';

// Plays the scripts through the real server, as a client does: the app started in-process on a
// fresh migrated database (PGlite by default, PostgreSQL with DATABASE_URL), users signed up over
// REST, messages sent and replies read back over the chat REST paths, rehearsals and weekly
// reviews over theirs. Scripts run a few at a time; each worker has its own user (a signup hashes
// its password at the production cost, so users are few), a weekly review its own.

export type Transcript =
  | { script: string; kind: 'chat'; turns: ChatTurn[] }
  | { script: string; kind: 'rehearsal'; variants: CounterpartVariant[] }
  | { script: string; kind: 'report'; goalMet: string | null; text: string }
  | { script: string; kind: 'weekly'; review: string };

export type EvalRun = { checks: Check[]; transcripts: Transcript[]; errors: Array<{ script: string; error: string }>; seconds: number; mode: 'offline' | 'model' };

export type RunOptions = { concurrency?: number; model?: EvalModel; log?: (line: string) => void };

type Msg = { id: number; role: string; content: string; status: string };

const replyTimeoutMs = 60_000;
let userCounter = 0;

async function signUpUser(baseUrl: string, prefix: string) {
  const http = new HttpClient(baseUrl);
  const username = `eval_${prefix}_${++userCounter}_${Date.now() % 1_000_000}`;
  const res = await http.post('/api/auth/register', { username, password: 'eval-password-123', fullName: 'Eval User' });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return http;
}

async function messagesOf(http: HttpClient, chatId: number): Promise<Msg[]> {
  const res = await http.get(`/api/chats/${chatId}/messages?limit=200`);
  if (res.status !== 200) throw new Error(`reading chat ${chatId}: ${res.status} ${res.text}`);
  return (Array.isArray(res.json) ? res.json : res.json.messages) as Msg[];
}

/** Sends a user message and waits for the coach's finished reply to it (as a polling client would). */
async function send(http: HttpClient, chatId: number, content: string): Promise<string> {
  const sent = await http.post(`/api/chats/${chatId}/messages`, { role: 'user', content });
  if (sent.status !== 201) throw new Error(`sending a message: ${sent.status} ${sent.text}`);
  const after = sent.json.id as number;
  const deadline = Date.now() + replyTimeoutMs;
  // Polled as a client without the socket would, backing off: a reply of the offline coach is
  // ready in milliseconds, a model's in seconds.
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    const reply = (await messagesOf(http, chatId)).find((msg) => msg.id > after && msg.role === 'assistant');
    if (reply && reply.status !== 'streaming') return reply.content ?? '';
    if (Date.now() > deadline) throw new Error(`no reply within ${replyTimeoutMs / 1000} s to "${content.slice(0, 40)}"`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

async function playChat(server: TestServer, http: HttpClient, script: ChatScript, model?: EvalModel): Promise<Transcript> {
  const chat = await http.post('/api/chats', { title: `Eval: ${script.id}` });
  if (chat.status !== 201) throw new Error(`creating a chat: ${chat.status}`);
  const turns: ChatTurn[] = [];
  for (const turn of script.turns) turns.push({ user: turn.user, expect: turn.expect, reply: await send(http, chat.json.id, turn.user) });
  // The model mode: the model, playing the persona, writes the user's further turns.
  if (model && script.simulate) {
    const client = modelClient(model);
    for (let i = 0; i < script.simulate.maxTurns; i++) {
      const next = await nextClientTurn(client, model, script, turns);
      if (!next) break;
      turns.push({ user: next, simulated: true, reply: await send(http, chat.json.id, next) });
    }
  }
  void server;
  return { script: script.id, kind: 'chat', turns };
}

async function playRehearsal(http: HttpClient, script: RehearsalScript): Promise<Transcript> {
  const variants: CounterpartVariant[] = [];
  for (const move of script.moves) {
    const started = await http.post('/api/rehearsals', script.setUp);
    if (started.status !== 201) throw new Error(`starting a rehearsal: ${started.status} ${started.text}`);
    for (const line of script.opening) await send(http, started.json.chatId, line);
    variants.push({ move: move.move, user: move.user, reply: await send(http, started.json.chatId, move.user) });
  }
  return { script: script.id, kind: 'rehearsal', variants };
}

async function playReport(server: TestServer, http: HttpClient, script: ReportScript): Promise<Transcript> {
  const started = await http.post('/api/rehearsals', script.setUp);
  if (started.status !== 201) throw new Error(`starting a rehearsal: ${started.status} ${started.text}`);
  // The planted transcript: stored as the chat's messages, as the rehearsal would have left them.
  const em = server.deps.orm.em.fork();
  for (const turn of script.transcript) {
    em.create(Message, { chat: started.json.chatId, role: turn.role === 'user' ? 'user' : 'assistant', content: turn.content, status: 'complete' });
    await em.flush();
  }
  const res = await http.post(`/api/rehearsals/${started.json.id}/feedback`);
  if (res.status !== 200) throw new Error(`the report: ${res.status} ${res.text}`);
  const posted = (await messagesOf(http, started.json.chatId)).filter((msg) => msg.role === 'assistant').at(-1)?.content ?? '';
  return { script: script.id, kind: 'report', goalMet: res.json.report?.judged?.goalMet ?? null, text: posted };
}

const isoDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function playWeekly(server: TestServer, script: WeeklyScript): Promise<Transcript> {
  const http = await signUpUser(server.url, 'weekly');
  for (const goal of script.goals) {
    const created = await http.post('/api/goals', {
      title: goal.title,
      framework: goal.framework,
      dueDate: isoDay(goal.dueInDays),
      keyResults: goal.keyResults.map((kr) => ({ title: kr.title, start: kr.start, target: kr.target })),
    });
    if (created.status !== 201) throw new Error(`creating a goal: ${created.status} ${created.text}`);
    for (const [i, kr] of goal.keyResults.entries()) {
      for (const value of kr.checkIns) {
        const checkIn = await http.post(`/api/goals/${created.json.id}/check-ins`, { keyResultId: created.json.keyResults[i].id, value });
        if (checkIn.status !== 201) throw new Error(`a check-in: ${checkIn.status} ${checkIn.text}`);
      }
    }
  }
  for (const commitment of script.commitments) {
    const saved = await http.post('/api/memories', { text: commitment.text, kind: 'commitment', dueAt: new Date(Date.now() + commitment.dueInDays * 86_400_000).toISOString() });
    if (saved.status !== 201) throw new Error(`a commitment: ${saved.status} ${saved.text}`);
  }
  const run = await http.post('/api/nudges/run', { kind: 'weekly_review' });
  if (run.status !== 202) throw new Error(`running the weekly review: ${run.status} ${run.text}`);
  const deadline = Date.now() + replyTimeoutMs;
  for (;;) {
    const runs = (await http.get('/api/nudges/runs')).json.runs as Array<{ id: number; status: string; chatId: number | null; reason: string | null }>;
    const done = runs.find((r) => r.id === run.json.runId && r.status !== 'queued' && r.status !== 'running' && r.status !== 'pending');
    if (done) {
      if (!done.chatId) throw new Error(`the weekly review was not written: ${done.status} ${done.reason ?? ''}`);
      const first = (await messagesOf(http, done.chatId)).find((msg) => msg.role === 'assistant');
      return { script: script.id, kind: 'weekly', review: first?.content ?? '' };
    }
    if (Date.now() > deadline) throw new Error('the weekly review did not run in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function scoreTranscript(script: Script, transcript: Transcript): Check[] {
  if (script.kind === 'chat' && transcript.kind === 'chat') return scoreChat(script, transcript.turns);
  if (script.kind === 'rehearsal' && transcript.kind === 'rehearsal') return scoreCounterpart(script, transcript.variants);
  if (script.kind === 'report' && transcript.kind === 'report') return scoreReport(script, transcript);
  if (script.kind === 'weekly' && transcript.kind === 'weekly') return scoreWeekly(script, transcript.review);
  throw new Error(`transcript of ${transcript.kind} for a ${script.kind} script`);
}

/** The dimension a script is written for (a script that cannot be played fails there). */
export function primaryDimension(script: Script): Check['dimension'] {
  if (script.kind === 'rehearsal') return 'counterpart';
  if (script.kind === 'report') return 'report';
  if (script.kind === 'weekly') return 'weeklyReview';
  if (script.turns.some((t) => t.expect?.safety)) return 'safety';
  if (script.expect?.will || script.expect?.outcomeKeyResults) return 'framework';
  if (script.expect?.autonomy) return 'autonomy';
  return 'listening';
}

/** The server the evaluation talks to: the app with the offline coach, or with the eval model as its coach. */
export function serverEnv(model?: EvalModel): Record<string, string> {
  return {
    DEMO_MODE: 'false',
    RATE_LIMIT_CHAT_PER_MINUTE: '0',
    RATE_LIMIT_REGISTER_PER_HOUR: '0',
    RATE_LIMIT_LOGIN_PER_ADDRESS: '0',
    RATE_LIMIT_GUEST_PER_HOUR: '0',
    MODEL_DAILY_QUOTA: '0',
    MODEL_DAILY_QUOTA_PER_ADDRESS: '0',
    ...(model ? { OPENAI_API_KEY: model.apiKey, OPENAI_BASE_URL: model.baseUrl, OPENAI_MODEL: model.name } : {}),
  };
}

/** Starts a server (unless given one), plays every script, scores it, and stops what it started. */
export async function runEvaluation(scripts: Script[], options: RunOptions & { server?: TestServer } = {}): Promise<EvalRun> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  let teardown: (() => unknown) | undefined;
  let server = options.server;
  if (!server) {
    // A migrated database, copied for the server, as the server tests make theirs.
    if (!process.env.TEST_PGLITE_TEMPLATE && !process.env.TEST_PG_TEMPLATE) teardown = await migratedTemplate();
    log(`database migrated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    server = await startTestServer(serverEnv(options.model));
    log(`server started in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const checks: Check[] = [];
  const transcripts: Transcript[] = [];
  const errors: EvalRun['errors'] = [];
  try {
    const queue = [...scripts];
    const concurrency = Math.max(1, Math.min(options.concurrency ?? 4, queue.length));
    const worker = async (n: number) => {
      const http = await signUpUser(server.url, `w${n}`);
      for (let script = queue.shift(); script; script = queue.shift()) {
        try {
          const transcript =
            script.kind === 'chat'
              ? await playChat(server, http, script, options.model)
              : script.kind === 'rehearsal'
                ? await playRehearsal(http, script)
                : script.kind === 'report'
                  ? await playReport(server, http, script)
                  : await playWeekly(server, script);
          transcripts.push(transcript);
          const scored = scoreTranscript(script, transcript);
          if (options.model && script.kind === 'chat' && transcript.kind === 'chat') scored.push(...(await judgeConversation(options.model, script, transcript.turns)));
          checks.push(...scored);
          log(`${scored.every((c) => c.pass) ? 'pass' : 'FAIL'} ${script.id}`);
        } catch (cause) {
          const error = cause instanceof Error ? cause.message : String(cause);
          errors.push({ script: script.id, error });
          // A script that could not be played fails, in the dimension it is written for.
          checks.push({ script: script.id, dimension: primaryDimension(script), check: 'script:played', pass: false, detail: error });
          log(`ERROR ${script.id}: ${error}`);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, (_, n) => worker(n)));
  } finally {
    if (!options.server) await server.stop();
    await teardown?.();
  }
  return { checks, transcripts, errors, seconds: (performance.now() - started) / 1000, mode: options.model ? 'model' : 'offline' };
}

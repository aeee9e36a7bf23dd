import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../src/server/app.js';
import { inboundFrameSchema } from '../../src/server/features/chats/chatSocket.js';
import { appRouter } from '../../src/server/trpc/root.js';
import { commonTexts } from '../../src/shared/texts/index.js';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { eventually, signUp } from '../helpers/clients.js';
import { apiRoutesOf } from '../helpers/routes.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';
import { arbitraryFromZod, holdsBadText, mergedFieldsArbitrary, mutated, nested } from '../helpers/zodArbitrary.js';

// Property-based fuzzing of every way input enters: each tRPC procedure (found in appRouter with
// its zod input), each REST path (found in the Express app's routes) and the /ws protocol. Bodies
// are generated from the same zod schemas, then mutated. Nothing may answer >= 500. A procedure
// or route added later is fuzzed without being named here.

let server: TestServer;
let graph: FakeGraph;
let model: FakeOpenAI;
let http: HttpClient;
/** The fuzzer's cookies, following Set-Cookie: a generated login or registration that succeeds
 * signs the fuzzer in as that account, as a browser would be. */
let jar = new Map<string, string>();
const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
let fuzzers = 0;
const seed = Number(process.env.FUZZ_SEED ?? 20261123);

// Every outside service points at a local fake, as in the other tests: the fuzz is about what the
// app does with bad input, and an unreachable provider (502) is a different fault (faults.test.ts).
beforeAll(async () => {
  [graph, model] = await Promise.all([startFakeGraph(), startFakeOpenAI()]);
  server = await startTestServer({ MODEL_DAILY_QUOTA: '0', MICROSOFT_GRAPH_BASE_URL: graph.url, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: model.url });
}, 90_000);
// Each part starts signed in as a fresh user with a few chats: sessions are server-side, so one
// part signing the fuzzer in or out must not change what the next part covers.
beforeEach(async () => {
  fuzzers += 1;
  ({ http } = await signUp(server.url, `fuzzer${fuzzers}`));
  for (let i = 0; i < 3; i++) await http.post('/api/chats', { title: `Chat ${i}` });
  jar = new Map(http.cookieHeader.split('; ').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await Promise.all([graph?.close(), model?.close()]);
}, 120_000);

type ProcedureDef = { type: 'query' | 'mutation' | 'subscription'; inputs: z.ZodType[] };
const procedures = Object.entries((appRouter._def as unknown as { procedures: Record<string, { _def: ProcedureDef }> }).procedures).map(
  ([path, procedure]) => ({ path, type: procedure._def.type, input: procedure._def.inputs[0] }),
);

const restRoutes = () => apiRoutesOf(createApp(server.deps));

const pathValue = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 4, max: 8 }).map(String) }, fc.constantFrom('0', '-1', '1e99', 'abc', '%00', '%ED%A0%80', '9'.repeat(40)), fc.string({ maxLength: 10 }).map(encodeURIComponent));
const inputSchemas = procedures.flatMap((p) => (p.input ? [p.input] : []));
// A REST body: the fields any procedure takes (so the path's own fields come up often), or a
// body generated from one procedure's schema.
const anyInput = fc.oneof(
  { weight: 3, arbitrary: mergedFieldsArbitrary(inputSchemas) },
  { weight: 1, arbitrary: fc.oneof(...inputSchemas.map(arbitraryFromZod)) },
);

async function send(method: string, path: string, body: unknown, raw?: string) {
  const res = await fetch(server.url + path, {
    method,
    headers: { 'content-type': 'application/json', cookie: cookieHeader(), origin: server.url },
    body: method === 'GET' ? undefined : raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    signal: AbortSignal.timeout(10_000),
    // The path's own answer is under test; a redirect's target (the client build) is not.
    redirect: 'manual',
  });
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const name = pair.slice(0, pair.indexOf('='));
    const value = pair.slice(pair.indexOf('=') + 1);
    if (!value || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  // Subscriptions stream for ever: the status line is the answer.
  const text = res.headers.get('content-type')?.includes('event-stream') ? (await res.body?.cancel(), '') : await res.text();
  return { status: res.status, text };
}

describe('fuzzing every input', () => {
  it('finds the procedures and routes to fuzz', () => {
    expect(procedures.map((p) => p.path)).toEqual(expect.arrayContaining(['chats.send', 'auth.login', 'profile.updateProfile']));
    expect(restRoutes()).toEqual(expect.arrayContaining([{ method: 'POST', path: '/api/chats' }, { method: 'POST', path: '/api/auth/login' }]));
  });

  it('answers every generated and mutated tRPC call below 500, and refuses bad text with 400', async () => {
    // Logging out or deleting the account would end the fuzzer's session half-way, with nothing
    // left to cover; logout takes no input, and deletion's only input is the typed DELETE.
    const targets = procedures.filter((p) => !['auth.logout', 'privacy.deleteAccount'].includes(p.path));
    let calls = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets).chain((procedure) => {
          const valid = procedure.input ? arbitraryFromZod(procedure.input) : fc.constant(undefined);
          return fc.tuple(fc.constant(procedure), fc.oneof(valid, mutated(valid)));
        }),
        async ([procedure, input]) => {
          calls++;
          const encoded = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
          const res =
            procedure.type === 'mutation'
              ? await send('POST', `/trpc/${procedure.path}`, input)
              : await send('GET', `/trpc/${procedure.path}${encoded}`, undefined);
          expect(res.status, `${procedure.path} ${JSON.stringify(input)?.slice(0, 300)} -> ${res.text.slice(0, 300)}`).toBeLessThan(500);
          // A subscription over HTTP answers 200 and reports its error as the stream's first event.
          if (holdsBadText(input) && procedure.type !== 'subscription') {
            expect(res.status, `${procedure.path} took bad text`).toBe(400);
            expect(res.text).toContain('cannot be stored');
          }
        },
      ),
      { numRuns: 500, seed, endOnFailure: true },
    );
    expect(calls).toBeGreaterThanOrEqual(500);
  }, 120_000);

  it('answers every generated and mutated REST request below 500', async () => {
    const routes = restRoutes().filter((route) => route.path !== '/api/auth/logout');
    expect(routes.length).toBeGreaterThan(8);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.array(pathValue, { minLength: 4, maxLength: 4 }),
        fc.oneof(anyInput, mutated(anyInput)),
        fc.option(fc.constantFrom('{"a":', 'not json', '[]', 'null', '"\\u0000"', '{"content":"\\ud800"}', '['.repeat(5000) + ']'.repeat(5000)), { freq: 5 }),
        async (route, values, body, raw) => {
          let i = 0;
          const path = route.path.replace(/:\w+/g, () => values[i++]!);
          const query = route.method === 'GET' ? `?limit=${values[1]}&before=${values[2]}` : '';
          const res = await send(route.method, path + query, body, raw ?? undefined);
          expect(res.status, `${route.method} ${path} ${(raw ?? JSON.stringify(body))?.slice(0, 300)} -> ${res.text.slice(0, 300)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 500, seed, endOnFailure: true },
    );
  }, 120_000);

  it('answers every generated and mutated /ws frame without a server error, and keeps the socket open', async () => {
    const frame = arbitraryFromZod(inboundFrameSchema);
    const frames = fc.sample(fc.oneof(frame, mutated(frame)), { numRuns: 300, seed });
    for (let start = 0; start < frames.length; start += 50) {
      const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie: cookieHeader(), origin: server.url } });
      const answers: Array<{ type: string; chatId?: number; message?: string | { role?: string } }> = [];
      ws.on('message', (data) => answers.push(JSON.parse(data.toString())));
      await new Promise((resolve) => ws.once('open', resolve));
      const batch = frames.slice(start, start + 50);
      for (const value of batch) ws.send(JSON.stringify(value));
      ws.send(JSON.stringify(nested(500)));
      // Every frame is answered once where a server error would be answered instead (`fail` in
      // chatSocket.ts): an error without a chatId, `messages_received`, or the `new_message` of the
      // user message it sent (a reply's own events come beside those). All have been handled once
      // that many answers are in.
      const handled = () => answers.filter((a) => a.type === 'messages_received' || (a.type === 'error' && a.chatId === undefined) || (a.type === 'new_message' && typeof a.message === 'object' && a.message.role === 'user')).length;
      await eventually(() => handled() >= batch.length + 1 || (ws.readyState !== WebSocket.OPEN && 'closed'));
      expect(answers.filter((a) => a.message === commonTexts.genericError)).toEqual([]);
      expect(ws.readyState).toBe(WebSocket.OPEN);
      ws.close();
    }
  }, 60_000);

  it('answers a huge body 413 and a deeply nested one 400', async () => {
    const huge = await send('POST', '/api/chats', { title: 'x'.repeat(200_000) });
    expect(huge.status).toBe(413);
    const hugeTrpc = await send('POST', '/trpc/chats.create', { title: 'x'.repeat(2_000_000) });
    expect(hugeTrpc.status).toBe(413);
    const deep = await send('POST', '/api/chats', nested(1000));
    expect(deep.status).toBe(400);
    const deepTrpc = await send('POST', '/trpc/chats.create', nested(1000));
    expect(deepTrpc.status).toBe(400);
  });

  it('refuses NUL and lone surrogates with a 400 naming the field, and stores nothing', async () => {
    const chatId = (await http.post('/api/chats', { title: 'Clean' })).json.id as number;
    const before = (await http.get('/api/chats')).json.length;
    const nul = await http.post('/api/chats', { title: 'Plan\u0000' });
    expect(nul.status).toBe(400);
    expect(nul.json.message).toContain("'title'");
    expect(nul.json.fieldErrors.title[0]).toContain('cannot be stored');
    const surrogate = await http.request('POST', '/api/chats', '{"title":"Plan \\ud800"}');
    expect(surrogate.status).toBe(400);
    const login = await new HttpClient(server.url).post('/api/auth/login', { username: 'fuzzer\u0000', password: 'secret123' });
    expect(login.status).toBe(400);
    expect(login.json.message).toContain("'username'");
    const message = await http.post(`/api/chats/${chatId}/messages`, { content: 'Hi \ud83d' });
    expect(message.status).toBe(400);
    expect(message.json.message).toContain("'content'");
    expect((await http.get('/api/chats')).json.length).toBe(before);
    expect((await http.get(`/api/chats/${chatId}/messages`)).json).toEqual([]);
    // A whole emoji (a valid surrogate pair) is text like any other.
    expect((await http.post('/api/chats', { title: 'Plan 🚀' })).status).toBe(201);
  });

  it('is still healthy afterwards', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });
});

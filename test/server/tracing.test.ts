import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGraph, type FakeGraph } from '../fakes/graph/index.js';
import { startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import { verifyPhone, twilioEnv } from '../helpers/phone.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// OpenTelemetry traces over OTLP/HTTP, received by a tiny OTLP receiver in the test
// (the exporter sends JSON to /v1/traces): the spans of our own around a model turn, a Graph
// call, a Twilio call and a WebSocket upgrade (in-process), and the http, express and pg
// instrumentations of a real start (`node src/server/main.ts`, a process of its own, since they
// patch modules as they load). No span carries message text, tokens or mail.

type OtlpSpan = { name: string; kind: number; attributes: Array<{ key: string; value: Record<string, unknown> }> };
type Receiver = { url: string; spans: OtlpSpan[]; bodies: string[]; close: () => Promise<void> };

async function startReceiver(): Promise<Receiver> {
  const spans: OtlpSpan[] = [];
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = Buffer.concat(chunks).toString('utf8');
        bodies.push(body);
        const parsed = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
        for (const resource of parsed.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

describe('traces over OTLP', () => {
  let receiver: Receiver;
  let graph: FakeGraph;
  let twilio: FakeTwilio;
  let server: TestServer;

  beforeAll(async () => {
    [receiver, graph, twilio] = await Promise.all([startReceiver(), startFakeGraph(), startFakeTwilio()]);
    server = await startTestServer({
      DEMO_MODE: 'false',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      MICROSOFT_GRAPH_BASE_URL: graph.url,
      ...twilioEnv(twilio),
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await Promise.all([receiver?.close(), graph?.close(), twilio?.close()]);
  });

  it('sends spans around a model turn, a Graph call, a Twilio call and a WebSocket upgrade, with no text, token or mail', async () => {
    const secretText = 'My confidential salary question 4242';
    const { http: browser } = await signUp(server.url, `traced_${Date.now()}`);
    const chat = (await browser.post('/api/chats')).json;
    expect((await browser.post(`/api/chats/${chat.id}/messages`, { content: secretText })).status).toBe(201);
    await eventually(async () => (await browser.get(`/api/chats/${chat.id}/messages`)).json.at(-1)?.status === 'complete');

    const box = graph.addMailbox({ tokens: ['traced-graph-token'], mail: 'traced@contoso.example' });
    box.addMessages([{ subject: 'Secret merger plans', fromName: 'Sam Lee', fromAddress: 'sam@contoso.example', body: 'Top secret body' }]);
    expect((await browser.post('/api/auth/microsoft/manual-token', { token: 'traced-graph-token', service: 'microsoft_email' })).status).toBe(200);
    expect((await browser.get('/api/microsoft-graph/real-emails')).status).toBe(200);

    // The coach calls only a verified number: verified by its texted code first.
    await verifyPhone(browser, twilio, '+15551234567');
    expect((await browser.post('/api/twilio/voice/call', { phoneNumber: '+1 (555) 123-4567' })).status).toBe(200);

    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie: browser.cookieHeader, origin: server.url } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.close();

    await server.deps.telemetry.spans!.flush();
    const names = () => receiver.spans.map((s) => s.name);
    await eventually(() => ['model turn', 'microsoft_graph request', 'twilio placeCall', 'websocket upgrade'].every((n) => names().includes(n)), 15_000);

    const turn = receiver.spans.find((s) => s.name === 'model turn')!;
    expect(attribute(turn, 'ai_coach.model_path')).toBe('chat');
    expect(attribute(turn, 'gen_ai.system')).toBe('offline');
    expect(attribute(turn, 'ai_coach.outcome')).toBe('complete');
    expect(receiver.spans.filter((s) => s.name === 'microsoft_graph request').length).toBeGreaterThanOrEqual(2);
    expect(attribute(receiver.spans.find((s) => s.name === 'websocket upgrade')!, 'url.path')).toBe('/ws');

    const everything = receiver.bodies.join('\n');
    for (const secret of [secretText, 'traced-graph-token', 'Secret merger plans', 'Top secret body', twilio.authToken, '5551234567']) {
      expect(everything).not.toContain(secret);
    }
  }, 120_000);
});

describe('traces of a real start (http, express and pg instrumentations)', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  let receiver: Receiver;
  let child: ChildProcess | undefined;
  let database: FreshDatabase;
  let dataDir: string;
  let output = '';

  beforeAll(async () => {
    receiver = await startReceiver();
    database = await freshDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-traced-'));
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEMO_MODE: 'false',
        LOG_LEVEL: 'warn',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }, 120_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      const force = setTimeout(() => child?.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(force);
    }
    await receiver?.close();
    await database?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('exports server spans named by route, express handler spans, and (on PostgreSQL) pg spans, without query strings', async () => {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start within 150 s:\n${output}`)), 150_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const running = /AI Coach is running at (http:\/\/\S+)/.exec(output);
        if (running) {
          clearTimeout(timer);
          resolve(running[1]!);
        }
      };
      child!.stdout!.on('data', read);
      child!.stderr!.on('data', read);
      child!.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
    });
    const { http: browser } = await signUp(url, `traced_start_${Date.now()}`);
    expect((await browser.get('/api/chats?secret=query-value-77')).status).toBe(200);
    await new HttpClient(url).get('/healthz');

    await eventually(() => receiver.spans.some((s) => s.kind === 2 && attribute(s, 'http.route') === '/api/chats'), 20_000);
    const names = receiver.spans.map((s) => s.name);
    expect(names).toContain('GET /api/chats');
    expect(names.some((n) => n.startsWith('request handler')), [...new Set(names)].join(' | ')).toBe(true);
    if (database.databaseUrl) expect(receiver.spans.some((s) => attribute(s, 'db.system') === 'postgresql' || attribute(s, 'db.system.name') === 'postgresql')).toBe(true);
    // Probes are not traced; query strings never leave.
    expect(receiver.spans.some((s) => attribute(s, 'url.path') === '/healthz')).toBe(false);
    expect(receiver.bodies.join('\n')).not.toContain('query-value-77');
  }, 240_000);
});

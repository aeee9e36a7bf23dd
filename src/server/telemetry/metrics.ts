import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import client from 'prom-client';
import type { CallOutcome, MetricsSink, ModelPath, ProviderName, TurnOutcome } from './telemetry.js';

// GET /metrics in Prometheus' text format, loaded only when METRICS_TOKEN is set
// (server.ts imports this module then). One registry a server (tests run several in a process).
//
// Labels are fixed names, never a raw path or an id: an HTTP request is labelled with its route's
// pattern ('/api/chats/:id'), a tRPC call with its procedure's name when it is one of the router's
// (anything else is '/trpc'), and whatever no route matched with 'unmatched' (under /api) or
// 'client' (the built client's files and pages).
//
// Per request: one timestamp on the response, one shared 'finish' listener (no closure), one
// label lookup and one observation. Nothing at all runs per request when metrics are off.

export type Gauges = {
  /** Open WebSocket connections by endpoint ('/trpc', '/ws'). */
  openSockets: () => Record<string, number>;
  /** Replies being streamed by this instance now. */
  activeReplies: () => number;
  /** The database pool: total, idle and waiting (PostgreSQL), or the embedded database's one connection. */
  databasePool: () => Promise<{ total: number; idle: number; waiting: number }>;
};

export type Metrics = MetricsSink & {
  registry: client.Registry;
  /** The middleware that measures each request (first in the app). */
  requests: RequestHandler;
  /** GET /metrics: the token checked in constant time, 401 otherwise. */
  handler: RequestHandler;
};

const started = Symbol('metricsStarted');
type Timed = ServerResponse & { [started]?: number };

export function createMetrics(options: { token: string; procedures: Iterable<string>; gauges: Gauges }): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });

  const requestDuration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status: their count (_count) and duration.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const turns = new client.Counter({
    name: 'model_turns_total',
    help: 'Model turns by path (chat, api, voice, phone, writing_style, nudge), provider and outcome.',
    labelNames: ['path', 'provider', 'outcome'] as const,
    registers: [registry],
  });
  const firstToken = new client.Histogram({
    name: 'model_turn_first_token_seconds',
    help: 'Time from the start of a model turn to its first token, by path.',
    labelNames: ['path'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32],
    registers: [registry],
  });
  const turnDuration = new client.Histogram({
    name: 'model_turn_duration_seconds',
    help: 'Duration of a whole model turn, by path.',
    labelNames: ['path'] as const,
    buckets: [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128],
    registers: [registry],
  });
  const providerErrors = new client.Counter({
    name: 'provider_errors_total',
    help: 'Failed calls to an outside provider (openai, microsoft_graph, twilio, web_push).',
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  const providerCalls = new client.Histogram({
    name: 'provider_call_duration_seconds',
    help: 'Calls to an outside provider by provider, operation and outcome (ok, failed): their count (_count) and duration. A model turn is counted by model_turns_total instead.',
    labelNames: ['provider', 'operation', 'outcome'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const refusals = new client.Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused by a rate limit, by limit.',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  const safetyScreens = new client.Counter({
    name: 'coach_safety_screen_total',
    help: "The coach's safety screen, one count per user turn screened, by what it found: self_harm, unsafe, harassment, medical, legal, financial or none.",
    labelNames: ['category'] as const,
    registers: [registry],
  });
  new client.Gauge({
    name: 'websocket_connections',
    help: 'Open WebSocket connections by endpoint.',
    labelNames: ['endpoint'] as const,
    registers: [registry],
    collect() {
      for (const [endpoint, count] of Object.entries(options.gauges.openSockets())) this.set({ endpoint }, count);
    },
  });
  new client.Gauge({
    name: 'reply_streams_active',
    help: 'Coach replies being streamed by this instance.',
    registers: [registry],
    collect() {
      this.set(options.gauges.activeReplies());
    },
  });
  new client.Gauge({
    name: 'db_pool_connections',
    help: 'Database connections by state: total, idle, and requests waiting for one.',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const pool = await options.gauges.databasePool();
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });

  // Route labels made once: the router's procedures and the fixed fallbacks.
  const procedureRoutes = new Map<string, string>();
  for (const name of options.procedures) procedureRoutes.set(name, `/trpc/${name}`);

  function routeOf(req: Request): string {
    const route = (req as { route?: { path?: unknown } }).route;
    if (route && typeof route.path === 'string') return req.baseUrl ? req.baseUrl + route.path : route.path;
    const url = req.originalUrl;
    if (url.startsWith('/trpc')) {
      const end = url.indexOf('?');
      const name = url.slice(6, end === -1 ? undefined : end);
      return procedureRoutes.get(name) ?? '/trpc';
    }
    if (url.startsWith('/api/') || url === '/api') return 'unmatched';
    return 'client';
  }

  function finished(this: Timed) {
    const start = this[started];
    if (start === undefined) return;
    const req = this.req as Request;
    requestDuration.labels(req.method, routeOf(req), String(this.statusCode)).observe((performance.now() - start) / 1000);
  }

  const requests: RequestHandler = (_req: IncomingMessage, res: Timed, next: NextFunction) => {
    res[started] = performance.now();
    res.once('finish', finished);
    next();
  };

  const expected = crypto.createHash('sha256').update(`Bearer ${options.token}`).digest();
  const handler: RequestHandler = async (req: Request, res: Response) => {
    // Hashes of equal length compared in constant time: neither the token nor its length leaks.
    const given = crypto.createHash('sha256').update(req.headers.authorization ?? '').digest();
    if (!crypto.timingSafeEqual(given, expected)) {
      res.status(401).set('WWW-Authenticate', 'Bearer').json({ message: 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>' });
      return;
    }
    res.set('Content-Type', registry.contentType).set('Cache-Control', 'no-store').send(await registry.metrics());
  };

  return {
    registry,
    requests,
    handler,
    providerError(provider: ProviderName) {
      providerErrors.labels(provider).inc();
    },
    providerCall(provider: ProviderName, operation: string, outcome: CallOutcome, seconds: number) {
      providerCalls.labels(provider, operation, outcome).observe(seconds);
    },
    modelTurn(path: ModelPath, provider: string, outcome: TurnOutcome, firstTokenSeconds: number | null, totalSeconds: number) {
      turns.labels(path, provider, outcome).inc();
      if (firstTokenSeconds !== null) firstToken.labels(path).observe(firstTokenSeconds);
      turnDuration.labels(path).observe(totalSeconds);
    },
    rateLimited(limit: string) {
      refusals.labels(limit).inc();
    },
    safetyScreen(category: string) {
      safetyScreens.labels(category).inc();
    },
  };
}

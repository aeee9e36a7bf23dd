import type { CoachModel, CoachRequest } from '../providers/ai/contract.js';

// What the server tells whoever watches it: Prometheus metrics (metrics.ts, with
// METRICS_TOKEN) and OpenTelemetry traces (tracing.ts, with OTEL_EXPORTER_OTLP_ENDPOINT). Both
// are loaded by dynamic import only when configured; without them every hook here is the
// identity (`noTelemetry`), so the code paths that call them cost nothing.
//
// Nothing here takes message text, tokens, mail or ids of users' rows: labels and attributes are
// fixed names (route patterns, procedure names, providers, limits, outcomes).

export type ProviderName = 'openai' | 'microsoft_graph' | 'twilio' | 'web_push';
export type CallOutcome = 'ok' | 'failed';
/** Where a model turn comes from: the label of model-turn metrics and the span's attribute. */
export type ModelPath = NonNullable<CoachRequest['path']>;
export type TurnOutcome = 'complete' | 'error' | 'stopped';

/** The metrics side (metrics.ts). */
export type MetricsSink = {
  providerError(provider: ProviderName): void;
  /** One call to an outside provider: its provider, operation (a fixed name), outcome and duration. */
  providerCall(provider: ProviderName, operation: string, outcome: CallOutcome, seconds: number): void;
  modelTurn(path: ModelPath, provider: string, outcome: TurnOutcome, firstTokenSeconds: number | null, totalSeconds: number): void;
  rateLimited(limit: string): void;
  /** One decision of the coach's safety screen: its category, or 'none' (never the text). */
  safetyScreen(category: string): void;
};

/** The tracing side (tracing.ts): a span around `work`, ended with its outcome. */
export type SpanSink = {
  span<T>(name: string, attributes: Record<string, string | number | boolean>, work: () => Promise<T>): Promise<T>;
  /** A span started now and ended by the caller (a streamed model turn). */
  start(name: string, attributes: Record<string, string | number | boolean>): { set(key: string, value: string | number | boolean): void; end(error?: unknown): void };
  /** Sends what is buffered (at a server's stop). */
  flush(): Promise<void>;
};

export type Telemetry = {
  readonly metrics: MetricsSink | null;
  readonly spans: SpanSink | null;
};

export const noTelemetry: Telemetry = { metrics: null, spans: null };

/**
 * Runs one call to a provider: counted with its duration by provider, operation and outcome, its
 * failures counted by provider, and a span around it when tracing.
 */
export function providerCall<T>(telemetry: Telemetry, provider: ProviderName, operation: string, work: () => Promise<T>): Promise<T> {
  const { metrics, spans } = telemetry;
  if (!metrics && !spans) return work();
  const counted = metrics
    ? async () => {
        const started = performance.now();
        try {
          const result = await work();
          metrics.providerCall(provider, operation, 'ok', (performance.now() - started) / 1000);
          return result;
        } catch (error) {
          metrics.providerCall(provider, operation, 'failed', (performance.now() - started) / 1000);
          metrics.providerError(provider);
          throw error;
        }
      }
    : work;
  return spans ? spans.span(`${provider} ${operation}`, { 'ai_coach.provider': provider, 'ai_coach.operation': operation }, counted) : counted();
}

/**
 * A copy of `target` whose asynchronous `methods` run through providerCall (the provider's name,
 * and as the operation the name given for the method, or the method's own). The same object when
 * telemetry is off.
 */
export function instrumentMethods<T extends object>(
  target: T,
  telemetry: Telemetry,
  provider: ProviderName,
  methods: (keyof T & string)[] | Partial<Record<keyof T & string, string>>,
): T {
  if (!telemetry.metrics && !telemetry.spans) return target;
  const operations: [string, string][] = Array.isArray(methods) ? methods.map((name) => [name, name]) : (Object.entries(methods) as [string, string][]);
  const copy = { ...target } as Record<string, unknown>;
  for (const [name, operation] of operations) {
    const method = (target as Record<string, unknown>)[name] as (...args: unknown[]) => Promise<unknown>;
    copy[name] = (...args: unknown[]) => providerCall(telemetry, provider, operation, () => method.apply(target, args));
  }
  return copy as T;
}

/**
 * The coach model with each turn measured: the time to the first token and in total, the outcome
 * (metrics, by path), and a span (traces) with the path, provider and model, never the text.
 */
export function instrumentCoach(coach: CoachModel, telemetry: Telemetry): CoachModel {
  const { metrics, spans } = telemetry;
  if (!metrics && !spans) return coach;
  const provider = coach.kind;
  return {
    kind: coach.kind,
    model: coach.model,
    async *stream(request) {
      const path = request.path ?? 'other';
      const started = performance.now();
      let firstToken: number | null = null;
      let outcome: TurnOutcome = 'complete';
      let failure: unknown;
      let chunks = 0;
      const span = spans?.start('model turn', { 'ai_coach.model_path': path, 'gen_ai.system': provider, 'gen_ai.request.model': coach.model });
      try {
        for await (const delta of coach.stream(request)) {
          if (firstToken === null) firstToken = performance.now();
          chunks++;
          yield delta;
        }
        if (request.signal?.aborted) outcome = 'stopped';
      } catch (error) {
        outcome = 'error';
        failure = error;
        throw error;
      } finally {
        // A consumer that stops reading (return()) ends the turn here too.
        if (outcome === 'complete' && request.signal?.aborted) outcome = 'stopped';
        const ended = performance.now();
        if (metrics) {
          if (outcome === 'error') metrics.providerError(provider === 'openai' ? 'openai' : (provider as ProviderName));
          metrics.modelTurn(path, provider, outcome, firstToken === null ? null : (firstToken - started) / 1000, (ended - started) / 1000);
        }
        if (span) {
          span.set('ai_coach.outcome', outcome);
          span.set('ai_coach.chunks', chunks);
          if (firstToken !== null) span.set('ai_coach.first_token_ms', Math.round(firstToken - started));
          span.end(failure);
        }
      }
    },
  };
}

/** Each limit's refusals counted by the limit's name (its key in RateLimits). */
export function instrumentRateLimits<T extends object>(limits: T, telemetry: Telemetry): T {
  const { metrics } = telemetry;
  if (!metrics) return limits;
  for (const [name, limit] of Object.entries(limits)) {
    if (!limit || typeof limit !== 'object' || typeof (limit as { consume?: unknown }).consume !== 'function') continue;
    const target = limit as { consume: (...args: unknown[]) => Promise<unknown> };
    const consume = target.consume.bind(limit);
    target.consume = (...args: unknown[]) =>
      consume(...args).catch((error: unknown) => {
        if ((error as { code?: string }).code === 'TOO_MANY_REQUESTS') metrics.rateLimited(name);
        throw error;
      });
  }
  return limits;
}

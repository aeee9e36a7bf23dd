import module from 'node:module';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { TelemetryConfig } from '../config.js';
import type { SpanSink } from './telemetry.js';

// OpenTelemetry traces over OTLP/HTTP, loaded by dynamic import only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set: boot.ts starts it before the server's modules load, so that
// the http, express and pg instrumentations patch them as they are imported (ESM imports through
// the import-in-the-middle hook the instrumentation package ships, registered here).
//
// What a span may carry: route patterns, methods, statuses, procedure and provider names, model
// names, durations and counts. Never message text, tokens or mail: URLs are cut to their path
// (tRPC queries carry their input in the query string, Graph searches theirs), no header is
// recorded, a database statement is its operation and table only (MikroORM inlines values into
// the SQL), and a failure is recorded by its error's name or code, not its message.

let started: (SpanSink & { provider: TracerProvider }) | undefined;

function pathOnly(url: string | undefined): string {
  if (!url) return '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * What a span may say of a SQL statement: its operation and its first table, e.g. 'INSERT message'.
 * String literals are cut out before the table is looked for, and only an identifier is kept, so no
 * value of the statement can come through.
 */
export function statementSummary(text: string): string {
  const sql = text.replace(/[eE]?'(?:[^']|'')*'/g, "''").replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, "''");
  const operation = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
  const table = /\b(?:from|into|update|join)\s+(?:only\s+)?"?([A-Za-z_][A-Za-z0-9_]*)"?(?:\s|$|,|\(|;)/i.exec(sql)?.[1];
  return table ? `${operation} ${table.toLowerCase()}` : operation;
}

const untraced = new Set(['/ping', '/healthz', '/readyz', '/metrics']);

export async function startTracing(config: TelemetryConfig, options: { hookModules?: boolean } = {}): Promise<SpanSink> {
  if (started) return started;
  if (!config.otlpEndpoint) throw new Error('OTEL_EXPORTER_OTLP_ENDPOINT is not set');
  // Only the instrumented modules pass through the hook: hooking every import slowed the start a lot.
  if (options.hookModules) {
    module.register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: ['express', 'pg', 'http', 'https', 'node:http', 'node:https'] } });
  }

  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${config.otlpEndpoint}/v1/traces` }), scheduledDelayMillis: 1_000 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req: IncomingMessage) => untraced.has(pathOnly(req.url)),
        // The exporter's own POSTs are not traced (they would trace themselves forever).
        ignoreOutgoingRequestHook: (req) => String(req.path ?? '').startsWith('/v1/traces'),
        requestHook: (span: Span, request: ClientRequest | IncomingMessage) => {
          if ('headers' in request && 'method' in request && !('path' in request)) {
            const path = pathOnly((request as IncomingMessage).url);
            span.setAttribute('url.path', path);
            span.setAttribute('http.target', path);
            span.setAttribute('url.query', '');
          } else {
            const outgoing = request as ClientRequest;
            const path = pathOnly(outgoing.path);
            span.setAttribute('url.full', `${outgoing.protocol}//${outgoing.host}${path}`);
            span.setAttribute('http.url', `${outgoing.protocol}//${outgoing.host}${path}`);
          }
        },
      }),
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new PgInstrumentation({
        enhancedDatabaseReporting: false,
        // MikroORM sends statements with their values inlined (message text, hashes, numbers): a
        // database span says only the operation and the table, and a failure only its code.
        requestHook: (span: Span, info: { query: { text: string } }) => {
          span.setAttribute('db.query.text', statementSummary(info.query.text));
          const setStatus = span.setStatus.bind(span);
          span.setStatus = (status) => setStatus({ code: status.code });
        },
      }),
    ],
  });

  const tracer = provider.getTracer('ai-coach');
  const fail = (span: Span, error: unknown) => {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'Error' });
    span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
  };
  started = {
    provider,
    span: (name, attributes, work) =>
      tracer.startActiveSpan(name, { attributes }, async (span) => {
        try {
          return await work();
        } catch (error) {
          fail(span, error);
          throw error;
        } finally {
          span.end();
        }
      }),
    start(name, attributes) {
      const span = tracer.startSpan(name, { attributes });
      return {
        set: (key, value) => void span.setAttribute(key, value),
        end(error) {
          if (error !== undefined) fail(span, error);
          span.end();
        },
      };
    },
    flush: () => provider.forceFlush(),
  };
  return started;
}

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express, type RequestHandler, type Router } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { AppDeps } from './deps.js';
import { aiRestRoutes } from './features/ai/ai.rest.js';
import { apiKeysRestRoutes } from './features/apiKeys/apiKeys.rest.js';
import { goalsRestRoutes } from './features/goals/goals.rest.js';
import { rehearsalRestRoutes } from './features/rehearsals/rehearsals.rest.js';
import { debriefsRestRoutes } from './features/debriefs/debriefs.rest.js';
import { memoriesRestRoutes } from './features/memories/memories.rest.js';
import { searchRestRoutes } from './features/search/search.rest.js';
import { meetingsRestRoutes } from './features/meetings/meetings.rest.js';
import { authRestRoutes } from './features/auth/auth.rest.js';
import { hasSessionCookie } from './features/auth/session.js';
import { chatRestRoutes } from './features/chats/chats.rest.js';
import { phoneRestRoutes } from './features/phone/phone.rest.js';
import { microsoftRestRoutes } from './features/microsoft/microsoft.rest.js';
import { writingStyleRestRoutes } from './features/writingStyle/writingStyle.rest.js';
import { securityRestRoutes } from './features/security/security.rest.js';
import { twilioRestRoutes } from './features/telephony/twilio.rest.js';
import { voiceRestRoutes } from './features/voice/voice.rest.js';
import { nudgesRestRoutes } from './features/nudges/nudges.rest.js';
import { adminInviteRestRoutes, adminRestRoutes } from './features/organisations/admin.rest.js';
import { scimBasePath, scimRestRoutes } from './features/organisations/scim.rest.js';
import { apiDocsRoutes } from './http/apiDocs.js';
import { authenticateLargeBodies } from './http/largeBodyGate.js';
import { httpContext } from './http/requestContext.js';
import { errorHandler, notFoundJson } from './http/rest.js';
import { requestLog } from './http/requestLog.js';
import { clientAssets, compressAnswers, isClientBuilt } from './http/staticAssets.js';
import { refuseForeignOrigins, securityHeaders, strictTransportSecurity } from './http/security.js';
import { RateLimitError } from './features/limits/rateLimits.js';
import { appRouter } from './trpc/root.js';
import type { Metrics } from './telemetry/metrics.js';

// src/server/app.ts (tsx) and dist/server/app.js (the compiled start) both sit two levels down.
const here = path.dirname(fileURLToPath(import.meta.url));
export const clientDist = path.resolve(here, '../../dist/client');

export type AppOptions = {
  // In development Vite serves the client as middleware instead of the built files.
  clientMiddleware?: RequestHandler;
  /** The built client to serve; dist/client by default (tests pass a fixture). */
  clientDir?: string;
  /** GET /metrics and the per-request measurements; absent when METRICS_TOKEN is not set. */
  metrics?: Pick<Metrics, 'requests' | 'handler'>;
};

/**
 * `handler` for the paths at or below one of `prefixes`; other requests go on at once. Unlike
 * `app.use(prefix, handler)` the handler sees the whole path, and Express neither rewrites the
 * request's URL on the way in and out nor parses it again (a cost on every request that passes a
 * mounted middleware, bench/results/api-chats.md).
 */
export function onlyUnder(prefixes: string[], handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    // Express matches paths without regard to case: so does this.
    const path = req.path.toLowerCase();
    for (const prefix of prefixes) {
      if (path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === '/')) return handler(req, res, next);
    }
    next();
  };
}

/**
 * `router` for the paths at or below one of `prefixes` (`onlyUnder`): its routes name full paths,
 * as the spec's table does. The router's routes stay listed on the gate (`stack`, as on a router),
 * for whoever lists the app's routes (test/helpers/routes.ts).
 */
export function under(prefixes: string[], router: Router): RequestHandler & { stack: Router['stack'] } {
  return Object.assign(onlyUnder(prefixes, router), { stack: router.stack });
}

export function createApp(deps: AppDeps, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag on the JSON answers of /api (res.json): each is one user's data, fetched again when it
  // may have changed, and hashing every body cost about 2% of a request
  // (bench/results/api-chats.md). Static files keep theirs (serve-static sets its own).
  app.disable('etag');
  app.set('trust proxy', deps.config.trustProxy);
  // First, so that a request's duration counts everything the app does for it.
  if (options.metrics) {
    app.use(options.metrics.requests);
    app.get('/metrics', options.metrics.handler);
  }
  app.use(securityHeaders(Boolean(options.clientMiddleware)));
  app.use(strictTransportSecurity(deps.config.trustProxy));
  // Before any route or body parser: a body over 100 KB is read only for a signed-in sender.
  app.use(authenticateLargeBodies(deps));

  // Liveness, readiness and the keep-alive ping of the phone guide (the product spec's screens).
  app.get('/ping', (_req, res) => void res.type('text/plain').send('pong'));
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    try {
      await deps.orm.em.fork().getConnection().execute('select 1');
      res.json({ status: 'ready' });
    } catch (error) {
      deps.log.warn({ err: error }, 'readiness check failed');
      res.status(503).json({ status: 'unavailable', message: 'The database is not reachable' });
    }
  });

  app.use(requestLog(deps.log));
  app.use(refuseForeignOrigins);
  // JSON answers compressed when asked; streams (SSE, tRPC jsonl, audio) never (staticAssets.ts).
  app.use(onlyUnder(['/trpc', '/api'], compressAnswers()));

  app.use(
    '/trpc',
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res }) => httpContext(deps, req, res),
      maxBodySize: 1024 * 1024,
      // Each call of a batch counts against the limits; a batch holds at most 10 calls.
      maxBatchSize: 10,
      responseMeta: ({ errors }) => {
        const limited = errors.find((error): error is RateLimitError => error instanceof RateLimitError);
        return limited ? { headers: { 'Retry-After': String(limited.retryAfterSeconds) } } : {};
      },
      onError: ({ error, path: procedure }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') deps.log.error({ err: error.cause ?? error, procedure }, 'procedure failed');
      },
    }),
  );

  // Each area's router is entered only for its own paths (`under`): a router mounted without a
  // path runs through all of its routes for every request.
  // Before the 100kb parser: a model request may carry up to 100,000 characters of conversation.
  app.use(under(['/api/openai'], aiRestRoutes(deps)));
  // With their own body parsers: recordings up to 25 MB, Twilio's form-encoded webhooks.
  app.use(under(['/api/voice'], voiceRestRoutes(deps)));
  app.use(under(['/api/twilio'], twilioRestRoutes(deps)));
  // The identity provider's provisioning (SCIM 2.0), with its own parser for application/scim+json.
  app.use(under([scimBasePath], scimRestRoutes(deps)));
  // A CSV invite of up to 1,000 people, with its own parser.
  app.use(under(['/api/admin/invites'], adminInviteRestRoutes(deps)));
  app.use(onlyUnder(['/api'], express.json({ limit: '100kb' })));
  app.use(under(['/api/chats'], chatRestRoutes(deps)));
  app.use(under(['/api/auth'], authRestRoutes(deps)));
  app.use(under(['/api/auth/microsoft', '/api/ai-coach/microsoft', '/api/microsoft-graph', '/api/microsoft-email'], microsoftRestRoutes(deps)));
  app.use(under(['/api/writing-analysis'], writingStyleRestRoutes(deps)));
  app.use(under(['/api/api-keys'], apiKeysRestRoutes(deps)));
  app.use(under(['/api/goals'], goalsRestRoutes(deps)));
  app.use(under(['/api/security-events'], securityRestRoutes(deps)));
  app.use(under(['/api/memories'], memoriesRestRoutes(deps)));
  app.use(under(['/api/search'], searchRestRoutes(deps)));
  app.use(under(['/api/meetings', '/api/microsoft/notifications'], meetingsRestRoutes(deps)));
  app.use(under(['/api/meetings', '/api/debriefs'], debriefsRestRoutes(deps)));
  app.use(under(['/api/phone'], phoneRestRoutes(deps)));
  app.use(under(['/api/nudges', '/api/push'], nudgesRestRoutes(deps)));
  app.use(under(['/api/rehearsals'], rehearsalRestRoutes(deps)));
  app.use(under(['/api/admin'], adminRestRoutes(deps)));
  app.use(under(['/api/openapi.json', '/api/docs'], apiDocsRoutes()));
  app.use('/api', notFoundJson);

  if (options.clientMiddleware) {
    app.use(options.clientMiddleware);
  } else if (isClientBuilt(options.clientDir ?? clientDist)) {
    // Precompressed brotli/gzip copies, immutable hashed assets, index.html never cached.
    app.use(clientAssets(options.clientDir ?? clientDist, { showsApp: (req) => deps.config.demoMode || hasSessionCookie(req) }));
  } else {
    app.get('/{*splat}', (_req, res) => void res.status(503).type('text/plain').send('The client is not built: run `npm run build` (npm start does it for you).'));
  }

  app.use(errorHandler(deps));
  return app;
}

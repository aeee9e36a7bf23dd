import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Clock } from 'pg-boss';
import type { HostLookup } from './features/nudges/pushHosts.js';
import type { RequestHandler } from 'express';
import { createApp } from './app.js';
import { composeDeps } from './compose.js';
import type { Config } from './config.js';
import { lockDataDir } from './db/dataDirLock.js';
import { databaseTarget, type EmbeddedDatabase } from './db/embedded.js';
import { openDatabase } from './db/orm.js';
import { ensureDeploymentOrganisation } from './features/organisations/organisation.js';
import type { AppDeps } from './deps.js';
import { routeUpgrades, type UpgradeRoutes } from './http/upgrades.js';
import { startJobs } from './jobs/startJobs.js';
import { createLogger } from './log.js';
import type { CoachModel } from './providers/ai/contract.js';
import { createTeardown } from './teardown.js';

// Starting the server, in four steps: compose the dependencies (compose.ts), start the jobs
// (jobs/startJobs.ts), serve HTTP and route WebSocket upgrades (app.ts, http/upgrades.ts), and
// one teardown stack that stops everything started, newest first (teardown.ts), on close and
// when a step fails.

export type RunningServer = {
  url: string;
  port: number;
  deps: AppDeps;
  httpServer: http.Server;
  close: () => Promise<void>;
};

export type StartOptions = {
  log?: Logger;
  /** The coach model; by default the configured OpenAI-compatible model or the offline coach. */
  coach?: CoachModel;
  /** Development: attach Vite to the server and let it serve the client. */
  attachClient?: (server: http.Server) => Promise<{ middleware: RequestHandler; close: () => Promise<void> }>;
  /**
   * The embedded database's worker thread failed or exited on its own. It is logged and every
   * database call fails from then on (/readyz answers 503); `npm start` also exits (main.ts).
   */
  onDatabaseFailure?: (error: Error) => void;
  /**
   * The embedded database, already locked and starting (main.ts starts it while the server's
   * modules load); the server owns it from here (closes it, releases the lock). Without it the
   * server locks and starts it itself.
   */
  embedded?: EmbeddedDatabase;
  /** The job queue's clock, the nudges' too (tests move it: pg-boss's TestClock); the system clock by default. */
  queueClock?: Clock;
  /** How a push service's host name is resolved before a delivery (tests answer for names they cannot own); DNS by default. */
  hostLookup?: HostLookup;
};

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(config.logLevel);
  const target = databaseTarget(config);
  const embedded = target.kind === 'pglite' ? options.embedded : undefined;
  const teardown = createTeardown(log);
  const releaseLock = embedded
    ? embedded.releaseLock
    : target.kind === 'pglite'
      ? await lockDataDir(config.dataDir, (error) => log.error({ err: error }, 'the data directory lock was lost'))
      : async () => {};
  teardown.defer('data directory lock', releaseLock);
  try {
    const database = await openDatabase(target, {
      embedded,
      onFailure: (error) => {
        log.error({ err: error }, 'the embedded database stopped; nothing can be read or saved until the server restarts');
        options.onDatabaseFailure?.(error);
      },
    });
    teardown.defer('database', () => database.close());
    // Before anything makes an account: every account belongs to it.
    await ensureDeploymentOrganisation(database.orm);

    let upgrades: UpgradeRoutes | undefined;
    // The address it listens on, known once it listens (below); until then, the loopback address.
    let url = 'http://127.0.0.1';
    const { deps, metrics, spans } = await composeDeps(config, {
      log,
      target,
      orm: database.orm,
      teardown,
      coach: options.coach,
      queueClock: options.queueClock,
      hostLookup: options.hostLookup,
      listenUrl: () => url,
      openSockets: () => upgrades?.openSockets() ?? { '/trpc': 0, '/ws': 0 },
    });
    await startJobs(deps, target, teardown);

    const httpServer = http.createServer();
    const client = options.attachClient ? await options.attachClient(httpServer) : undefined;
    if (client) teardown.defer('client', () => client.close());
    const app = createApp(deps, { clientMiddleware: client?.middleware, metrics });
    httpServer.on('request', app);
    // `Expect: 100-continue` is answered by the app (http/largeBodyGate.ts), once the sender of a
    // large body is known, instead of by Node at once: an unknown sender never sends the body.
    httpServer.on('checkContinue', app);
    upgrades = routeUpgrades(deps, httpServer, { spans, passOn: Boolean(client) });
    const sockets = upgrades;

    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(config.port, config.host, () => resolve());
    });
    // First to stop: tell WebSocket clients to reconnect elsewhere, stop accepting, let requests finish.
    teardown.defer('http server', async () => {
      sockets.closeAll();
      const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const timeout = setTimeout(() => httpServer.closeAllConnections(), 5_000);
      await stopped;
      clearTimeout(timeout);
    });
    const port = (httpServer.address() as AddressInfo).port;
    const hostForUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
    url = `http://${hostForUrl === '0.0.0.0' ? '127.0.0.1' : hostForUrl}:${port}`;
    return { url, port, deps, httpServer, close: () => teardown.run() };
  } catch (error) {
    await teardown.run();
    throw error;
  }
}

import { ConfigError, loadConfig, type Config } from './config.js';
import { startWarnings } from './startWarnings.js';
import { DataDirLockedError } from './db/dataDirLock.js';
import { databaseTarget, startEmbeddedDatabase } from './db/embedded.js';
import { createLogger } from './log.js';
import type { RunningServer, StartOptions } from './server.js';

// The start (main.ts is the entry). Only light modules are imported statically: the embedded
// database is locked and started in its worker thread first, and the server's modules (the
// framework, the ORM, the features: about a second) load while PGlite opens (about as long).

const dev = process.argv.includes('--dev');

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  for (const warning of startWarnings(config)) console.warn(warning);

  // The embedded database's worker failed: nothing can be read or saved, so stop (a supervisor or
  // the operator restarts it; what was committed is on disk) rather than serve errors.
  let databaseFailed: ((error: Error) => void) | undefined;
  const options: StartOptions = { log, onDatabaseFailure: (error) => databaseFailed?.(error) };
  if (dev) {
    const { attachViteDevServer } = await import('./dev/vite.js');
    options.attachClient = attachViteDevServer;
  }

  let server: RunningServer;
  try {
    // The embedded database is locked and started first (a few milliseconds: its worker thread
    // opens it on its own), then the server's modules load on this thread meanwhile. Loading
    // them is synchronous work, so the lock is taken before it begins, not alongside.
    // Traces: started before the server's modules load, so that their instrumentations patch
    // http, express and pg as they are imported. Nothing of it is loaded without the endpoint.
    if (config.telemetry.otlpEndpoint) await (await import('./telemetry/tracing.js')).startTracing(config.telemetry, { hookModules: true });
    const target = databaseTarget(config);
    if (target.kind === 'pglite') {
      options.embedded = await startEmbeddedDatabase(config.dataDir, target.directory, (error) => log.error({ err: error }, 'the data directory lock was lost'));
    }
    const loaded = await import('./server.js').catch(async (error: unknown) => {
      await options.embedded?.pglite.close().catch(() => {});
      await options.embedded?.releaseLock();
      throw error;
    });
    server = await loaded.startServer(config, options);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  const coach = config.openai.apiKey ? `model ${config.openai.model}` : 'built-in offline coach (no OPENAI_API_KEY)';
  console.log(`\nAI Coach is running at ${server.url}\n  database: ${database}\n  demo mode: ${config.demoMode ? 'on' : 'off'}\n  coach: ${coach}\n`);

  let stopping = false;
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await server.close().catch((error) => log.error({ err: error }, 'could not stop cleanly'));
    process.exit(exitCode);
  };
  databaseFailed = (error) => {
    console.error(`AI Coach is stopping: ${error.message}`);
    void stop('database failure', 1);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error('AI Coach could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

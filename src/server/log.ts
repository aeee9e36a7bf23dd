import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

// Standard output is written off the event loop, by pino's own transport (a worker thread that
// writes to file descriptor 1, fed through shared memory), so a request never waits for the
// terminal or the log collector. When the process ends, whichever way (process.exit after SIGTERM
// in main.ts or a failed start, an uncaught exception, the end of the event loop), the transport
// waits for its thread to write every line, in order: log.test.ts checks each. (An asynchronous
// sonic-boom destination was tried first: at an abrupt end, the lines of the write under way
// landed after the ones flushed at exit.)
export function asyncStdout(): DestinationStream {
  return pino.transport({ target: 'pino/file', options: { destination: 1 } });
}

// Structured JSON logs. Secrets never reach them: request logs carry no headers, no bodies and
// no query strings, and the redaction below is a second line of defence.
export function createLogger(level: Config['logLevel'], destination: DestinationStream = asyncStdout()): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['password', '*.password', 'token', '*.token', 'cookie', '*.cookie', 'authorization', '*.authorization', 'apiKey', '*.apiKey'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

// Standard output is written asynchronously (pino.destination with sync: false: lines that
// arrive while a write is under way go out together in the next one), so a request never waits
// for the terminal or the log collector. pino writes what is still buffered synchronously when the
// process exits, whichever way (process.exit after SIGTERM in main.ts or a failed start, an
// uncaught exception, the end of the event loop): log.test.ts checks each.
export function asyncStdout(): DestinationStream {
  return pino.destination({ dest: 1, sync: false });
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

import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

// Standard output is written off the event loop, by pino's own transport (a worker thread that
// writes to file descriptor 1, fed through shared memory), so a request never waits for the
// terminal or the log collector. When the process ends, whichever way (process.exit after SIGTERM
// in main.ts or a failed start, an uncaught exception, the end of the event loop), the transport
// waits for its thread to write every line, in order: log.test.ts checks each. (An asynchronous
// sonic-boom destination was tried first: at an abrupt end, the lines of the write under way
// landed after the ones flushed at exit.)
//
// Lines reach the transport in batches, a few milliseconds' worth at a time (`batched`): the
// transport wakes its thread for every turn of the event loop that gave it a line (an
// Atomics.notify, a futex wake), and under load those wake-ups, each taking a core from the
// requests for a moment, cost the server more than writing the lines
// (bench/results/api-chats.md).
export function asyncStdout(): DestinationStream {
  return batched(pino.transport({ target: 'pino/file', options: { destination: 1 } }));
}

/** How long a line may wait to be handed to the transport. */
export const logBatchMs = 25;

// Holds the lines of the next `logBatchMs` and writes them to `destination` as one string. When
// the process ends, whichever way, the lines held are written first (listeners put before every
// other 'beforeExit' and 'exit' listener, the transport's own among them, which end it), so they
// still come out, in order.
export function batched(destination: DestinationStream): DestinationStream {
  let held: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const writeHeld = () => {
    clearTimeout(timer);
    timer = undefined;
    if (held.length === 0) return;
    const text = held.length === 1 ? held[0]! : held.join('');
    held = [];
    destination.write(text);
  };
  process.prependListener('beforeExit', writeHeld);
  process.prependListener('exit', writeHeld);
  return {
    write(line: string) {
      held.push(line);
      timer ??= setTimeout(writeHeld, logBatchMs).unref();
    },
  };
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

import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

// Structured JSON logs. Secrets never reach them: request logs carry no headers, no bodies and
// no query strings, and the redaction below is a second line of defence.
export function createLogger(level: Config['logLevel']): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['password', '*.password', 'token', '*.token', 'cookie', '*.cookie', 'authorization', '*.authorization', 'apiKey', '*.apiKey'],
      censor: '[redacted]',
    },
  });
}

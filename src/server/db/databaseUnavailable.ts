import { ConnectionException } from '@mikro-orm/core';

// PostgreSQL restarting, shutting down or unreachable: the request may well work again in a
// moment, so it is answered 503 with a message rather than 500 (the app keeps running and the
// pool reconnects by itself; /readyz says when).
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
const unavailableMessage = /connection terminated|terminating connection|connection (?:refused|reset|closed)|client has encountered a connection error|the database system is (?:starting up|shutting down)|not queryable/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 6; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof ConnectionException) return true;
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && unavailableCodes.has(code)) return true;
    if (typeof message === 'string' && unavailableMessage.test(message)) return true;
    if (cause instanceof AggregateError && cause.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

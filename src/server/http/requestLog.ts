import type { IncomingMessage } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';

function pathOf(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

const unlogged = new Set(['/ping', '/healthz']);

// One line a request through pino-http, written when the answer is done: { reqId, req: { method,
// path }, res: { status }, ms, msg: 'request' }, level info, warn from status 500. The path never
// carries the query string; the serializers keep headers, cookies and bodies out of the log.
//
// Kept cheap, since it runs for every request (bench/results/api-chats.md):
// - The app's redaction removes values by key (password, token, cookie, authorization, apiKey, at
//   the top or one level down). A request line has fixed keys, none of them, and values that are a
//   method, a path without its query string, a status and a duration: no redaction path can match
//   it, yet checking them cost about as much as writing the line. So request lines go through a
//   child of the app's logger (same level, same destination) without redaction paths; every other
//   line is redacted as before (log.test.ts).
// - One child logger a request, not two: pino-http always makes one carrying the request (req.log,
//   for handlers; none here logs through it), and with quietReqLogger a second one for the request
//   id. Here the request line is written by the base logger (quietResLogger) and carries the
//   request id and the request itself (customSuccessObject, customErrorObject).
export function requestLog(log: Logger) {
  return pinoHttp({
    logger: log.child({}, { redact: [] }),
    quietResLogger: true,
    autoLogging: { ignore: (req) => unlogged.has(pathOf(req)) },
    customAttributeKeys: { responseTime: 'ms' },
    serializers: {
      req: (req: IncomingMessage) => ({ method: req.method, path: pathOf(req) }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      err: () => undefined,
    },
    // Our serializers take the request and response as they are: pino's standard wrappers would
    // first copy each (headers, address, query...) into an object of their own, twice a request.
    wrapSerializers: false,
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    customSuccessObject: (req, _res, value) => ({ reqId: req.id, ...value, req }),
    customErrorObject: (req, _res, _error, value) => ({ reqId: req.id, ...value, req, err: undefined }),
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'warn' : 'info'),
  });
}

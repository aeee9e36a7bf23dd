import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

function pathOf(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

const unlogged = new Set(['/ping', '/healthz']);

// One line a request, written when the answer is done (or the connection closed first):
// { reqId, req: { method, path }, res: { status }, ms, msg: 'request' }, level info, warn from
// status 500. The path never carries the query string; headers, cookies and bodies are never read.
//
// This was pino-http, configured to write the same line. pino-http makes two child loggers per
// request (one for the request id, one carrying the serialized request, redacted at creation) and
// hangs them on req.log / res.log for handlers that log through them; nothing here does, and
// under load those children were one of the largest costs of a request (bench/README.md,
// "GET /api/chats"). The line is the same; the children are gone.
export function requestLog(log: Logger) {
  // The app's redaction removes values by key (password, token, cookie, authorization, apiKey,
  // at the top or one level down). A request line has fixed keys, none of them, and values that
  // are a method, a path without its query string, a status and a duration: no redaction path
  // can match it, yet checking them cost about as much as writing the line. So request lines go
  // through a child of the app's logger (same level, same destination) with no redaction paths.
  const lines = log.child({}, { redact: [] });
  let nextId = 0;
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const path = pathOf(req);
    if (unlogged.has(path)) return next();
    const reqId = ++nextId;
    const started = Date.now();
    // 'close' follows 'finish' for every answer, and comes alone when the client went away first.
    res.once('close', () => {
      const status = res.statusCode;
      const line = { reqId, req: { method: req.method, path }, res: { status }, ms: Date.now() - started };
      if (status >= 500) lines.warn(line, 'request');
      else lines.info(line, 'request');
    });
    next();
  };
}

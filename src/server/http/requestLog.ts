import type { IncomingMessage } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';

function pathOf(req: IncomingMessage): string {
  return ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/').split('?')[0]!;
}

// One line a request through pino-http: method, path (never the query string), status and
// duration. The serializers keep headers, cookies and bodies out of the log entirely.
export function requestLog(log: Logger) {
  return pinoHttp({
    logger: log,
    quietReqLogger: true,
    autoLogging: { ignore: (req) => ['/ping', '/healthz'].includes(pathOf(req)) },
    customAttributeKeys: { responseTime: 'ms' },
    serializers: {
      req: (req: { raw: IncomingMessage; method: string }) => ({ method: req.method, path: pathOf(req.raw) }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      err: () => undefined,
    },
    wrapSerializers: true,
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'warn' : 'info'),
  });
}

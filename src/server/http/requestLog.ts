import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

// One line a request: method, path (never the query string), status and duration.
export function requestLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const path = req.originalUrl.split('?')[0];
      if (path === '/ping' || path === '/healthz') return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}

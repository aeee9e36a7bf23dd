import type { NextFunction, Request, Response } from 'express';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError, z } from 'zod';
import { commonTexts } from '../../shared/texts/index.js';
import type { AppDeps } from '../deps.js';
import { createCaller } from '../trpc/root.js';
import { publicMessage } from '../trpc/init.js';
import { findInputProblem, inputProblemError } from './inputBoundary.js';
import { httpContext } from './requestContext.js';
import { RateLimitError } from '../features/limits/rateLimits.js';

type Caller = ReturnType<typeof createCaller>;

// Architecture rule 1: a spec REST path parses the request, calls the same tRPC procedure through a
// server-side caller, and shapes the reply. Errors keep the procedure's status and message.
// `errorAlsoAs: 'error'` repeats the message as `error` for the paths whose error field the
// product spec's REST calls read (the manual token: docs/spec-differences.md, item 17).
export function restRoute(
  deps: AppDeps,
  handle: (caller: Caller, req: Request, res: Response) => Promise<unknown>,
  successStatus = 200,
  options: { errorAlsoAs?: 'error' } = {},
) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      // Path parameters and the query string never reach a procedure's raw input as such.
      const problem = findInputProblem({ ...req.params, ...req.query });
      if (problem) throw new TRPCError({ code: 'BAD_REQUEST', message: problem.message, cause: inputProblemError(problem) });
      const caller = createCaller(await httpContext(deps, req, res));
      const body = await handle(caller, req, res);
      if (res.headersSent) return;
      if (body === undefined) res.status(204).end();
      else sendJson(req, res, successStatus, body);
    } catch (error) {
      if (error instanceof TRPCError) {
        const status = getHTTPStatusCodeFromError(error);
        if (status >= 500) {
          deps.log.error({ err: error.cause ?? error, path: req.path }, 'request failed');
        }
        if (error instanceof RateLimitError) res.setHeader('Retry-After', String(error.retryAfterSeconds));
        const fieldErrors =
          error.cause instanceof ZodError ? z.flattenError(error.cause).fieldErrors : undefined;
        const message = publicMessage(error);
        res.status(status).json({ message, ...(options.errorAlsoAs ? { [options.errorAlsoAs]: message } : {}), ...(fieldErrors ? { fieldErrors } : {}) });
        return;
      }
      next(error);
    }
  };
}

// What res.json answers (the status, `Content-Type: application/json; charset=utf-8`, the
// Content-Length; no ETag, app.ts), written the way a bare node:http server writes it: one string,
// so Node sends the headers and the body in one write. Express's res.send turns a body over 1,000
// characters into a Buffer first (the headers and it then go out in two pieces) and parses and
// formats the content type on every answer. A conditional request (If-None-Match,
// If-Modified-Since) still goes through res.json: freshness stays Express's decision (with no
// ETag or Last-Modified on these answers, it answers them in full).
const largeAnswer = 64 * 1024;

function sendJson(req: Request, res: Response, status: number, body: unknown) {
  if (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) {
    res.status(status).json(body);
    return;
  }
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (text.length < largeAnswer) {
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
    return;
  }
  // A large answer (an analytics breakdown is megabytes) is encoded once, not measured and then encoded.
  const bytes = Buffer.from(text);
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}

export function notFoundJson(_req: Request, res: Response) {
  res.status(404).json({ message: 'Not found' });
}

// Last resort: a person gets a plain message, the log gets the cause once.
export function errorHandler(deps: Pick<AppDeps, 'log'>) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') return void res.status(413).json({ message: commonTexts.tooLarge });
    if (type === 'entity.parse.failed') return void res.status(400).json({ message: commonTexts.badJson });
    if (status >= 400 && status < 500) return void res.status(status).json({ message: (error as Error).message });
    deps.log.error({ err: error, path: req.path }, 'unhandled error');
    if (!res.headersSent) res.status(500).json({ message: commonTexts.genericError });
  };
}

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { TRPCError } from '@trpc/server';
import { authTexts, commonTexts } from '../../shared/texts/index.js';
import type { AppDeps } from '../deps.js';
import { apiKeyOf, apiKeySession } from '../features/apiKeys/apiKeyAuth.js';
import { RateLimitError } from '../features/limits/rateLimits.js';
import { scimBasePath } from '../features/organisations/scim.rest.js';
import { organisationOfScimToken } from '../features/organisations/scimTokens.js';
import { clientIpOf, upgradeSession } from './requestContext.js';

// A body is read only after its sender is known. Every body parser may read up to
// this many bytes of anyone's request; a larger body (a recording, a long model request, a big
// tRPC batch) is read only for a signed-in session or a valid API key. A larger body from anyone
// else is answered at once (401, `Connection: close`) and the connection is closed without reading
// it. A client that sends `Expect: 100-continue` is told before it sends a byte of the body.
//
// This runs first, before any route and any body parser, for every path (a new route with a
// larger parser is covered without doing anything). Twilio's webhooks are signed, not signed in:
// their bodies stay below this (64 KB, twilio.rest.ts).
export const unauthenticatedBodyLimit = 100 * 1024;

/** The body's declared size; Infinity when it is sent chunked (its size is not known before it is read). */
function declaredBodySize(req: Request): number {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) || 0;
  return req.headers['transfer-encoding'] ? Number.POSITIVE_INFINITY : 0;
}

function wantsContinue(req: Request): boolean {
  return (req.headers.expect ?? '').toLowerCase() === '100-continue';
}

/**
 * Whether the request is signed in (a live cookie session or a valid API key; under /scim/v2 a live
 * provisioning token), reading no body.
 */
async function signedIn(deps: Pick<AppDeps, 'config' | 'orm' | 'sessionPassword' | 'rateLimits' | 'sessions'>, req: Request): Promise<boolean> {
  if (req.path.toLowerCase().startsWith(`${scimBasePath.toLowerCase()}/`)) {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    return token !== undefined && (await organisationOfScimToken(deps.orm, token)) !== null;
  }
  const key = apiKeyOf(req.headers);
  if (key !== undefined) return (await apiKeySession(deps, key, clientIpOf(req, deps.config.trustProxy))).userId !== undefined;
  return (await upgradeSession(deps, req)).userId !== undefined;
}

function refuse(res: Response, status: number, message: string, retryAfterSeconds?: number) {
  res.setHeader('Connection', 'close');
  if (retryAfterSeconds) res.setHeader('Retry-After', String(retryAfterSeconds));
  // Once the answer is out, the connection goes: the unread body is never taken in.
  res.on('finish', () => res.req.socket.destroySoon());
  res.status(status).json({ message });
}

export function authenticateLargeBodies(deps: Pick<AppDeps, 'config' | 'orm' | 'log' | 'sessionPassword' | 'rateLimits' | 'sessions'>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (declaredBodySize(req) <= unauthenticatedBodyLimit) {
      if (wantsContinue(req)) res.writeContinue();
      return next();
    }
    signedIn(deps, req).then(
      (ok) => {
        if (!ok) return refuse(res, 401, `${authTexts.notAuthenticated}: ${commonTexts.tooLargeUnauthenticated}`);
        if (wantsContinue(req)) res.writeContinue();
        next();
      },
      (error: unknown) => {
        if (error instanceof RateLimitError) return refuse(res, 429, error.message, error.retryAfterSeconds);
        if (error instanceof TRPCError && error.code === 'UNAUTHORIZED') return refuse(res, 401, error.message);
        deps.log.warn({ err: error }, 'could not authenticate a large request');
        refuse(res, 503, commonTexts.genericError);
      },
    );
  };
}

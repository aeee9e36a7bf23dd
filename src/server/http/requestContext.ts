import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../deps.js';
import { openHttpSession, openReadOnlySession } from '../features/auth/session.js';
import { createContext, type Context } from '../trpc/context.js';

export function clientIpOf(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

function isSecure(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  return trustProxy && req.headers['x-forwarded-proto'] === 'https';
}

// The one way a request becomes a tRPC context: HTTP (read-write session) ...
export async function httpContext(deps: AppDeps, req: IncomingMessage, res: ServerResponse): Promise<Context> {
  const { trustProxy } = deps.config;
  const session = await openHttpSession(deps.sessionPassword, req.headers, res, isSecure(req, trustProxy));
  return createContext(deps, { headers: req.headers, clientIp: clientIpOf(req, trustProxy), session });
}

// ... or a WebSocket upgrade (read-only snapshot of the session cookie).
export async function upgradeContext(deps: AppDeps, req: IncomingMessage): Promise<Context> {
  const session = await openReadOnlySession(deps.sessionPassword, req.headers);
  return createContext(deps, { headers: req.headers, clientIp: clientIpOf(req, deps.config.trustProxy), session });
}

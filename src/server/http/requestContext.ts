import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../deps.js';
import { apiKeyOf, apiKeySession } from '../features/apiKeys/apiKeyAuth.js';
import { openSession, type Session } from '../features/auth/session.js';
import { createContext, type Context } from '../trpc/context.js';

// With N trusted proxies, the client is the entry the outermost trusted proxy appended: the
// N-th from the right of X-Forwarded-For plus the socket's peer. Entries further left are
// written by the client itself and never trusted.
export function clientIpOf(req: IncomingMessage, trustedHops: number): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (trustedHops <= 0) return peer;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : header ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  return chain[Math.max(0, chain.length - 1 - trustedHops)] ?? peer;
}

export function isSecureRequest(req: IncomingMessage, trustedHops: number): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (trustedHops <= 0) return false;
  const header = req.headers['x-forwarded-proto'];
  // The nearest proxy's word counts: the right-most value when proxies append.
  const proto = (Array.isArray(header) ? header.join(',') : header ?? '').split(',').pop()?.trim();
  return proto === 'https';
}

function sessionDeps(deps: Pick<AppDeps, 'config' | 'sessionPassword' | 'sessions'>) {
  return { sessionPassword: deps.sessionPassword, sessions: deps.sessions, lifetimeSeconds: deps.config.sessions.lifetimeSeconds };
}

// The one way a request becomes a tRPC context: HTTP (the session can start and end; an
// `Authorization: Bearer` API key signs in its owner instead of the cookie) ...
export async function httpContext(deps: AppDeps, req: IncomingMessage, res: ServerResponse): Promise<Context> {
  const { trustProxy } = deps.config;
  const clientIp = clientIpOf(req, trustProxy);
  const apiKey = apiKeyOf(req.headers);
  if (apiKey !== undefined) {
    return createContext(deps, { headers: req.headers, clientIp, session: await apiKeySession(deps, apiKey, clientIp) });
  }
  const session = await openSession(sessionDeps(deps), { headers: req.headers, clientIp }, res, isSecureRequest(req, trustProxy));
  return createContext(deps, { headers: req.headers, clientIp, session });
}

// ... or a WebSocket upgrade (read-only: the session the cookie names).
export async function upgradeSession(deps: Pick<AppDeps, 'config' | 'sessionPassword' | 'sessions'>, req: IncomingMessage): Promise<Session> {
  const clientIp = clientIpOf(req, deps.config.trustProxy);
  return openSession(sessionDeps(deps), { headers: req.headers, clientIp }, undefined, false);
}

// The session the upgrade opened, handed to the socket's context: one object for the connection,
// so a guest space started on the socket is the connection's from then on.
const upgradeSessions = new WeakMap<IncomingMessage, Session>();
export function adoptUpgradeSession(req: IncomingMessage, session: Session) {
  upgradeSessions.set(req, session);
}

export async function upgradeContext(deps: AppDeps, req: IncomingMessage): Promise<Context> {
  const session = upgradeSessions.get(req) ?? (await upgradeSession(deps, req));
  return createContext(deps, { headers: req.headers, clientIp: clientIpOf(req, deps.config.trustProxy), session });
}

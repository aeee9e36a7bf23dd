import type { IncomingHttpHeaders } from 'node:http';
import type { EntityManager } from '@mikro-orm/core';
import type { AppDeps } from '../deps.js';
import type { User } from '../db/entities/User.js';
import type { Session } from '../features/auth/session.js';

// One context for HTTP, WebSocket and server-side callers, built from headers and cookies.
export type Context = {
  deps: AppDeps;
  session: Session;
  headers: IncomingHttpHeaders;
  clientIp: string;
};

export type DbContext = Context & { em: EntityManager };
export type UserContext = DbContext & { user: User | null };
export type AuthedContext = DbContext & { user: User };

export function createContext(
  deps: AppDeps,
  request: { headers: IncomingHttpHeaders; clientIp: string; session: Session },
): Context {
  return { deps, session: request.session, headers: request.headers, clientIp: request.clientIp };
}

/** The context with an EntityManager of its own, for a statementProcedure handler that needs one. */
export function withEntityManager(ctx: Context): DbContext {
  return { ...ctx, em: ctx.deps.orm.em.fork() };
}

import { NotFoundError } from '@mikro-orm/core';
import { initTRPC, TRPCError } from '@trpc/server';
import { z, ZodError } from 'zod';
import { apiKeyTexts, authTexts, commonTexts, organisationTexts } from '../../shared/texts/index.js';
import { findInputProblem, inputProblemError } from '../http/inputBoundary.js';
import { isDatabaseUnavailable } from '../db/databaseUnavailable.js';
import { resolveUser } from '../features/auth/currentUser.js';
import { isOrgAdmin } from '../features/organisations/roles.js';
import { AuditNotes, runAudited } from '../features/organisations/audit.js';
import { refuseUnscopedKey, type ProcedureMeta } from './apiKeyScopes.js';
import { actAs, type OutsideWorld } from './principal.js';
export type { OutsideWorld } from './principal.js';
import type { Context } from './context.js';
import type { User } from '../db/entities/User.js';

// The only file that calls initTRPC (architecture rule 14).
const t = initTRPC.context<Context>().meta<ProcedureMeta>().create({
  isDev: false,
  errorFormatter({ shape, error }) {
    const zodError = error.code === 'BAD_REQUEST' && error.cause instanceof ZodError ? error.cause : null;
    return {
      ...shape,
      message: publicMessage(error),
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        fieldErrors: zodError ? z.flattenError(zodError).fieldErrors : undefined,
      },
    };
  },
});

// What a person may read: the first validation message, our own messages, never internals.
export function publicMessage(error: TRPCError): string {
  if (error.cause instanceof ZodError) return error.cause.issues[0]?.message ?? commonTexts.genericError;
  if (error.code === 'INTERNAL_SERVER_ERROR') return commonTexts.genericError;
  return error.message;
}

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;

// What every procedure does around its handler:
// - every input (tRPC, REST, /ws, new procedures too) is checked for text the database cannot
//   hold before its schema and handler see it;
// - the ORM's not-found becomes NOT_FOUND, and a database that cannot be reached answers 503.
async function refuseUnsafeInput(getRawInput: () => Promise<unknown>) {
  const problem = findInputProblem(await getRawInput());
  if (problem) throw new TRPCError({ code: 'BAD_REQUEST', message: problem.message, cause: inputProblemError(problem) });
}

function mapDatabaseErrors<R extends { ok: boolean; error?: TRPCError }>(ctx: Context, result: R): R {
  if (!result.ok && result.error?.cause instanceof NotFoundError) {
    throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
  }
  if (!result.ok && result.error?.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(result.error.cause)) {
    ctx.deps.log.warn({ err: result.error.cause }, 'database unavailable');
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: commonTexts.databaseUnavailable, cause: result.error.cause });
  }
  return result;
}

// One middleware, not two: tRPC copies the call's options and context for every middleware of a
// call (its object spread helper was the largest JavaScript function of a loaded GET /api/chats,
// bench/results/api-chats.md), so each middleware fewer is a copy fewer on every call. Each call works in
// its own forked EntityManager.
// An API key reaches only the procedures that declare one of its scopes (`.meta({ keys })`):
// anything that does not say is closed to keys, refused before its input is read.
const procedureBase = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  refuseUnscopedKey(ctx.session, meta);
  await refuseUnsafeInput(getRawInput);
  return mapDatabaseErrors(ctx, await next({ ctx: { em: ctx.deps.orm.em.fork() } }));
});

export const publicProcedure = t.procedure.use(procedureBase);

// For a handler that only runs plain statements on the ORM's connection and loads no entity (the
// chat list): the same checks, without a forked EntityManager. A fork is not free (MikroORM builds
// a unit of work and rewrites its configuration, process.env included, twice per fork): it was
// about 5% of a loaded GET /api/chats. Such a handler forks one itself if it needs entities after
// all (`withEntityManager`).
const statementBase = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  refuseUnscopedKey(ctx.session, meta);
  await refuseUnsafeInput(getRawInput);
  return mapDatabaseErrors(ctx, await next());
});

export const statementProcedure = t.procedure.use(statementBase);

export const userProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const user = await resolveUser(ctx);
  return next({ ctx: { user } });
});

// Any signed-in principal: a registered account, a guest space, an API key (within the scopes its
// procedure accepts, checked in procedureBase), or a demo visitor. Who a request acts as is decided
// here and nowhere else (actAs in principal.ts): a demo visitor without a space of their own reads
// the template (the demo account's samples); anything else they do (any mutation, over HTTP, REST,
// tRPC or /ws) first makes them a private guest space and signs them into it, so no handler is
// ever given the template to write to. The samples' chat ids keep naming the visitor's copies.
export const protectedProcedure = publicProcedure.use(async ({ ctx, type, path, meta, getRawInput, next }) => {
  const actor = await actAs(ctx, { type, path, meta, getRawInput, accountOnly: false });
  // tRPC takes both options together; its types offer them one at a time.
  return next({ ctx: { user: actor.user }, getRawInput: actor.getRawInput } as { ctx: { user: User } });
});

/**
 * Refuses what only a registered account's own browser session may do: an API key (403, before
 * any work) and a guest space or the demo template (403 with what to do: create an account).
 * For handlers that refuse only part of their input (a profile phone, a goal's calls).
 */
export function refuseOutsideWorld(ctx: { session: { viaApiKey?: boolean }; user: { isDemo: boolean; isGuest: boolean } }, what: OutsideWorld): void {
  if (ctx.session.viaApiKey) throw new TRPCError({ code: 'FORBIDDEN', message: apiKeyTexts.notWithApiKey });
  if (ctx.user.isDemo || ctx.user.isGuest) throw new TRPCError({ code: 'FORBIDDEN', message: authTexts.accountRequiredFor[what] });
}

// What connects the outside world (Microsoft, phones, calls, API keys) or acts on the whole
// account takes a registered account's own signed-in session: never a demo visitor, never a guest
// space, never an API key (no such procedure declares a key scope). Refused before any work, with
// a message per integration ('Create an account to connect Microsoft 365'), which the screens show
// next to a way to register; a demo visitor is refused without a guest space being made for it.
export const accountProcedure = publicProcedure.use(async ({ ctx, type, path, meta, getRawInput, next }) => {
  const actor = await actAs(ctx, { type, path, meta, getRawInput, accountOnly: true });
  return next({ ctx: { user: actor.user }, getRawInput: actor.getRawInput } as { ctx: { user: User } });
});

// What acts on the whole account but is no integration (its sessions, its export, its deletion):
// the owner's own browser session, a guest's too (their space is theirs), never an API key (none
// of these declares a key scope). A demo visitor's export or session change acts on the guest
// space their first write makes, never on the template.
export const browserSessionProcedure = protectedProcedure;

// What administers the organisation (its members, roles, seats, settings, provisioning tokens): an
// admin's own signed-in session only. An allow-list: a procedure is reachable by an admin because it
// is declared with this, and by nobody else. Any API key is refused (403, whatever its scopes or
// owner: a leaked key must not administer anything), a request without a session answers 401, and
// a member, a guest space or the demo account 403. Admin procedures read the organisation's
// members and settings, never anyone's conversations, memories, goals or any other text of theirs.
// Every admin mutation is written to the organisation's audit log here, in the transaction it runs
// in (features/organisations/audit.ts): it declares its action (`.meta({ audit })`), a mutation
// without one is refused, and its handler adds the target and changed fields (`ctx.audit.note`).
const readOnly = new AuditNotes(false);
export const adminProcedure = publicProcedure.use(async ({ ctx, type, path, meta, next }) => {
  if (ctx.session.viaApiKey) throw new TRPCError({ code: 'FORBIDDEN', message: apiKeyTexts.notWithApiKey });
  if (!ctx.session.userId) throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.notAuthenticated });
  const user = await resolveUser(ctx);
  if (!user) throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.notAuthenticated });
  if (!isOrgAdmin(user, ctx.deps.config.organisation.admins)) throw new TRPCError({ code: 'FORBIDDEN', message: organisationTexts.adminsOnly });
  if (type !== 'mutation') return next({ ctx: { user, audit: readOnly } });
  return runAudited(ctx.em, user, path, meta?.audit, (tx, audit) => next({ ctx: { user, em: tx, audit } }));
});

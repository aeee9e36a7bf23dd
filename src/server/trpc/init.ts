import { NotFoundError } from '@mikro-orm/core';
import { initTRPC, TRPCError } from '@trpc/server';
import { z, ZodError } from 'zod';
import { apiKeyTexts, authTexts, commonTexts } from '../../shared/texts/index.js';
import { findInputProblem, inputProblemError } from '../http/inputBoundary.js';
import { isDatabaseUnavailable } from '../db/databaseUnavailable.js';
import { resolveUser } from '../features/auth/currentUser.js';
import type { Context } from './context.js';

// The only file that calls initTRPC (CONVENTIONS 1).
const t = initTRPC.context<Context>().create({
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
// bench/README.md), so each middleware fewer is a copy fewer on every call. Each call works in
// its own forked EntityManager.
const procedureBase = t.middleware(async ({ ctx, getRawInput, next }) => {
  await refuseUnsafeInput(getRawInput);
  return mapDatabaseErrors(ctx, await next({ ctx: { em: ctx.deps.orm.em.fork() } }));
});

export const publicProcedure = t.procedure.use(procedureBase);

// For a handler that only runs plain statements on the ORM's connection and loads no entity (the
// chat list): the same checks, without a forked EntityManager. A fork is not free (MikroORM builds
// a unit of work and rewrites its configuration, process.env included, twice per fork): it was
// about 5% of a loaded GET /api/chats. Such a handler forks one itself if it needs entities after
// all (`withEntityManager`).
const statementBase = t.middleware(async ({ ctx, getRawInput, next }) => {
  await refuseUnsafeInput(getRawInput);
  return mapDatabaseErrors(ctx, await next());
});

export const statementProcedure = t.procedure.use(statementBase);

export const userProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const user = await resolveUser(ctx);
  return next({ ctx: { user } });
});

export const protectedProcedure = userProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.notAuthenticated });
  return next({ ctx: { user: ctx.user } });
});

// DESIGN rule 10: what connects the outside world (Microsoft, phones, calls, API keys) or acts on
// the whole account (export, deletion, sessions, password) takes a registered account's own
// signed-in session: never a demo visitor's or guest's account, never an API key. Issue 22 refines
// the messages per integration; procedures that need it use this one base.
export const accountProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.session.viaApiKey) throw new TRPCError({ code: 'FORBIDDEN', message: apiKeyTexts.notWithApiKey });
  if (ctx.user.isDemo) throw new TRPCError({ code: 'FORBIDDEN', message: authTexts.accountRequired });
  return next();
});

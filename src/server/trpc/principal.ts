import { TRPCError } from '@trpc/server';
import { authTexts } from '../../shared/texts/index.js';
import type { User } from '../db/entities/User.js';
import { resolveUser } from '../features/auth/currentUser.js';
import { startGuestSpace } from '../features/auth/guestAccount.js';
import type { ProcedureMeta } from './apiKeyScopes.js';
import type { DbContext } from './context.js';
import { ownCopiesOfSamples, sampleChatIds } from './sampleCopies.js';

// Who a request acts as, decided in one place for every procedure (HTTP, REST, tRPC, /ws):
//
// - an API key: its owner, and only in procedures that declare one of the key's scopes;
// - a registered account or a guest space: itself;
// - a demo visitor without a space of their own: the demo template, for reads only. Whatever else
//   they do first makes them a private guest space (a copy of the template) and signs them into
//   it; that write, and everything after it, acts on the space. The template is never handed to a
//   handler that can write (a mutation), whatever the procedure: export, sessions, settings, chats.
//
// A visitor's (or a former visitor's) copies of the template's samples answer to the samples' ids
// (sampleCopies.ts). What an API key may call is apiKeyScopes.ts; what the coach may read for a
// turn is factSources.ts.

/** What a guest space cannot reach, by the router a procedure is in (the message names it). */
export type OutsideWorld = keyof typeof authTexts.accountRequiredFor;
const outsideWorldOfRouter: Record<string, OutsideWorld> = {
  microsoft: 'microsoft',
  twilio: 'calls',
  apiKeys: 'apiKeys',
  profile: 'phone',
  goals: 'goalCalls',
  auth: 'sessions',
  privacy: 'dataRights',
  nudges: 'nudgeSettings',
};

type Call = {
  type: 'query' | 'mutation' | 'subscription';
  meta: ProcedureMeta | undefined;
  path: string;
  getRawInput: () => Promise<unknown>;
  /** Only a registered account's own browser session (integrations, keys): never a visitor or a guest. */
  accountOnly: boolean;
};

export type Actor = { user: User; getRawInput: () => Promise<unknown> };

/** The user a call acts as (see above), and its input with the samples' chat ids resolved. */
export async function actAs(ctx: DbContext, call: Call): Promise<Actor> {
  const resolved = await resolveUser(ctx);
  if (!resolved) throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.notAuthenticated });
  if (call.accountOnly && (resolved.isDemo || resolved.isGuest)) {
    const what = outsideWorldOfRouter[call.path.split('.')[0] ?? ''];
    throw new TRPCError({ code: 'FORBIDDEN', message: what ? authTexts.accountRequiredFor[what] : authTexts.accountRequired });
  }
  let user = resolved;
  if (user.isDemo) {
    // The template: read as it is, never written. Its own chat ids name its own chats.
    if (call.type !== 'mutation') return { user, getRawInput: call.getRawInput };
    if (call.meta?.visitor) throw new TRPCError({ code: 'FORBIDDEN', message: call.meta.visitor.refused });
    const overSocket = ctx.session.onStarted !== undefined;
    if (!overSocket && !ctx.session.canStart) throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.guestOverWebSocket });
    user = (await startGuestSpace({ ...ctx, user }, { overSocket })).user;
  }
  const sampleIds = await sampleChatIds(ctx.deps.orm);
  if (!sampleIds.size) return { user, getRawInput: call.getRawInput };
  const owner = user.id;
  return { user, getRawInput: async () => ownCopiesOfSamples(ctx.deps.orm, owner, sampleIds, user.isGuest ? call.path : null, await call.getRawInput()) };
}

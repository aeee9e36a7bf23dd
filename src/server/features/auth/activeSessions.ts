import { TRPCError } from '@trpc/server';
import type { EndSessionInput } from '../../../shared/schemas/auth.js';
import { sessionTexts } from '../../../shared/texts/index.js';
import type { AuthedContext } from '../../trpc/context.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';

// Settings, Security: the signed-in user's sessions. The demo account is shared by every demo
// visitor, so there a visitor sees and ends only their own.
export async function listSessions(ctx: AuthedContext) {
  const all = await ctx.deps.sessions.list(ctx.user.id);
  const visible = ctx.user.isDemo ? all.filter((s) => s.id === ctx.session.id) : all;
  // This device first, then the others by last activity.
  const sessions = visible.map((s) => ({ ...s, current: s.id === ctx.session.id }));
  return { sessions: [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)] };
}

export async function endSession(ctx: AuthedContext, input: EndSessionInput) {
  const allowed = !ctx.user.isDemo || input.id === ctx.session.id;
  if (!allowed || !(await ctx.deps.sessions.endOne(ctx.user.id, input.id))) {
    throw new TRPCError({ code: 'NOT_FOUND', message: sessionTexts.notFound });
  }
  await recordSecurityEvent(ctx.em, requestEvent(ctx, input.id === ctx.session.id ? 'sign_out' : 'session_ended'));
  if (input.id === ctx.session.id) await ctx.session.end();
  return { success: true as const };
}

export async function endOtherSessions(ctx: AuthedContext) {
  if (ctx.user.isDemo || !ctx.session.id) return { ended: 0 };
  const ended = await ctx.deps.sessions.endOthers(ctx.user.id, ctx.session.id);
  if (ended > 0) await recordSecurityEvent(ctx.em, requestEvent(ctx, 'session_ended'));
  return { ended };
}

import { TRPCError } from '@trpc/server';
import type { SetPasswordInput } from '../../../shared/schemas/auth.js';
import { microsoftSignInTexts } from '../../../shared/texts/index.js';
import { User } from '../../db/entities/User.js';
import type { AuthedContext } from '../../trpc/context.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';
import { hashPassword, verifyPassword } from './password.js';
import { rateLimitAddressKey } from '../limits/index.js';

// Settings: the ways an account signs in. Unlinking the Microsoft account keeps the user and its
// data (its Microsoft connections too: they are disconnected on the Integrations page); it needs
// a password first, or the account would have no way in left.

export async function unlinkMicrosoft(ctx: AuthedContext) {
  const user = await ctx.em.findOneOrFail(User, ctx.user.id);
  if (!user.entraObjectId) throw new TRPCError({ code: 'BAD_REQUEST', message: microsoftSignInTexts.notLinkedError });
  if (!ctx.deps.config.passwordLogin) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: microsoftSignInTexts.unlinkPasswordLoginOff });
  if (!user.passwordHash) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: microsoftSignInTexts.unlinkNeedsPassword });
  ctx.em.assign(user, { entraTenantId: null, entraObjectId: null, entraUsername: null });
  await ctx.em.flush();
  await recordSecurityEvent(ctx.em, requestEvent(ctx, 'microsoft_unlinked'));
  return { success: true as const };
}

export async function setPassword(ctx: AuthedContext, input: SetPasswordInput) {
  if (!ctx.deps.config.passwordLogin) throw new TRPCError({ code: 'FORBIDDEN', message: microsoftSignInTexts.passwordLoginDisabled });
  const user = await ctx.em.findOneOrFail(User, ctx.user.id);
  if (user.passwordHash) {
    if (!input.currentPassword) throw new TRPCError({ code: 'BAD_REQUEST', message: microsoftSignInTexts.currentPasswordRequired });
    // A current password is a guess like a login's: it takes a point of the same budgets (the
    // account's username and the address) before it is checked, so a stolen session cannot test
    // guesses at full speed; 429 once they are spent. The right one gives them back.
    const { rateLimits } = ctx.deps;
    const address = rateLimitAddressKey(ctx.clientIp);
    await rateLimits.loginPerAddress.consume(address);
    await rateLimits.loginPerUsername.consume(user.usernameKey);
    if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
      throw new TRPCError({ code: 'FORBIDDEN', message: microsoftSignInTexts.currentPasswordWrong });
    }
    await Promise.all([rateLimits.loginPerUsername.reset(user.usernameKey), rateLimits.loginPerAddress.refund(address)]);
  }
  user.passwordHash = await hashPassword(input.newPassword);
  await ctx.em.flush();
  await recordSecurityEvent(ctx.em, requestEvent(ctx, 'password_changed'));
  // Whoever else was signed in (perhaps with the old password) is signed out, their sockets too.
  const ended = ctx.session.id ? await ctx.deps.sessions.endOthers(ctx.user.id, ctx.session.id) : 0;
  if (ended > 0) await recordSecurityEvent(ctx.em, requestEvent(ctx, 'session_ended'));
  return { success: true as const };
}

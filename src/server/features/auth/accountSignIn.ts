import { TRPCError } from '@trpc/server';
import type { SetPasswordInput } from '../../../shared/schemas/auth.js';
import { microsoftSignInTexts } from '../../../shared/texts/index.js';
import { User } from '../../db/entities/User.js';
import type { AuthedContext } from '../../trpc/context.js';
import { recordSecurityEvent, requestEvent } from '../security/securityEvents.js';
import { hashPassword, verifyPassword } from './password.js';

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
    if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
      throw new TRPCError({ code: 'FORBIDDEN', message: microsoftSignInTexts.currentPasswordWrong });
    }
  }
  user.passwordHash = await hashPassword(input.newPassword);
  await ctx.em.flush();
  await recordSecurityEvent(ctx.em, requestEvent(ctx, 'password_changed'));
  return { success: true as const };
}

import { TRPCError } from '@trpc/server';
import type { LoginInput } from '../../../shared/schemas/auth.js';
import { authTexts, microsoftSignInTexts } from '../../../shared/texts/index.js';
import { User } from '../../db/entities/User.js';
import type { DbContext } from '../../trpc/context.js';
import { startGuestSpace } from './guestAccount.js';
import { hashPassword, needsRehash, verifyPassword } from './password.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';
import { rateLimitAddressKey } from '../limits/index.js';

// Every attempt consumes a point of its address's and its username's budget before the password
// is checked, so attempts in flight together (or batched) count one by one. A success gives the
// points back.
export async function login(ctx: DbContext, input: LoginInput) {
  if (!ctx.deps.config.passwordLogin) throw new TRPCError({ code: 'FORBIDDEN', message: microsoftSignInTexts.passwordLoginDisabled });
  const usernameKey = input.username.toLowerCase();
  const { rateLimits, config } = ctx.deps;
  const address = rateLimitAddressKey(ctx.clientIp);
  await rateLimits.loginPerAddress.consume(address);
  await rateLimits.loginPerUsername.consume(usernameKey);
  const user = await ctx.em.findOne(User, { usernameKey });
  const passwordOk = await verifyPassword(input.password, user?.passwordHash);
  if (!user || !passwordOk || (user.isDemo && !config.demoMode)) {
    if (user && !user.isDemo) await recordSecurityEvent(ctx.em, requestEvent(ctx, 'sign_in_failed', user.id));
    throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.invalidCredentials });
  }
  // A deprovisioned account signs in no more (told only to whoever knows its password).
  if (!user.active) throw new TRPCError({ code: 'FORBIDDEN', message: microsoftSignInTexts.errors.deprovisioned });
  await Promise.all([rateLimits.loginPerUsername.reset(usernameKey), rateLimits.loginPerAddress.refund(address)]);
  // Hashes of an older, cheaper cost are replaced now that the password is at hand.
  if (needsRehash(user.passwordHash)) {
    user.passwordHash = await hashPassword(input.password);
    await ctx.em.flush();
  }
  // The demo credentials (shown on /login) sign into a fresh private guest space, never into the
  // shared demo account, which is only the template every guest space is copied from.
  if (user.isDemo) {
    const space = await startGuestSpace({ ...ctx, user });
    return { user: space.user.toPublic() };
  }
  await ctx.session.start(user.id);
  if (!user.isDemo) await recordSecurityEvent(ctx.em, requestEvent(ctx, 'sign_in', user.id));
  return { user: user.toPublic() };
}

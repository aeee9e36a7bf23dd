import { TRPCError } from '@trpc/server';
import type { LoginInput } from '../../../shared/schemas/auth.js';
import { authTexts } from '../../../shared/texts/index.js';
import { User } from '../../db/entities/User.js';
import type { DbContext } from '../../trpc/context.js';
import { verifyPassword } from './password.js';

export async function login(ctx: DbContext, input: LoginInput) {
  const usernameKey = input.username.toLowerCase();
  const { loginThrottle, config } = ctx.deps;
  const wait = await loginThrottle.retryAfterSeconds(usernameKey, ctx.clientIp);
  if (wait > 0) {
    throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: authTexts.tooManyAttempts(Math.ceil(wait / 60)) });
  }
  const user = await ctx.em.findOne(User, { usernameKey });
  const passwordOk = await verifyPassword(input.password, user?.passwordHash);
  if (!user || !passwordOk || (user.isDemo && !config.demoMode)) {
    await loginThrottle.recordFailure(usernameKey, ctx.clientIp);
    throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.invalidCredentials });
  }
  await loginThrottle.recordSuccess(usernameKey);
  ctx.session.userId = user.id;
  await ctx.session.save();
  return { user: user.toPublic() };
}

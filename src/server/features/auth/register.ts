import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { registerSchema } from '../../../shared/schemas/auth.js';
import { authTexts, microsoftSignInTexts, organisationTexts } from '../../../shared/texts/index.js';
import { User } from '../../db/entities/User.js';
import type { DbContext } from '../../trpc/context.js';
import { dropGuestSamples } from './guestAccount.js';
import { hashPassword } from './password.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';
import { rateLimitAddressKey } from '../limits/index.js';
import { hasFreeSeat, withSeatCheck } from '../organisations/index.js';

export async function register(ctx: DbContext, input: z.output<typeof registerSchema>) {
  if (!ctx.deps.config.passwordLogin) throw new TRPCError({ code: 'FORBIDDEN', message: microsoftSignInTexts.passwordLoginDisabled });
  await ctx.deps.rateLimits.register.consume(rateLimitAddressKey(ctx.clientIp));
  const usernameKey = input.username.toLowerCase();
  if (await ctx.em.count(User, { usernameKey })) {
    throw new TRPCError({ code: 'CONFLICT', message: authTexts.usernameTaken });
  }
  // Registering from a guest space keeps it: the guest becomes the account, its chats, goals,
  // memories and knowledge base included, and the demo's samples go (dropGuestSamples).
  const current = ctx.session.userId ? await ctx.em.findOne(User, { id: ctx.session.userId, isGuest: true }) : null;
  // A new member takes a seat of the organisation (a guest space took none): refused at once when
  // every seat is taken, and counted again under the organisation's lock as the account is written.
  const organisationId = current?.organisationId ?? 1;
  if (!(await hasFreeSeat(ctx.em, organisationId))) throw new TRPCError({ code: 'FORBIDDEN', message: organisationTexts.noSeat });
  const fields = {
    username: input.username,
    usernameKey,
    passwordHash: await hashPassword(input.password),
    fullName: input.fullName,
    jobTitle: input.jobTitle,
    company: input.company,
    isDemo: false,
    isGuest: false,
    guestOrigin: null,
  };
  let user: User;
  try {
    user = await withSeatCheck(ctx.em, organisationId, async (tx, seat) => {
      if (!seat.ok) throw new TRPCError({ code: 'FORBIDDEN', message: organisationTexts.noSeat });
      const made = current ? tx.assign(await tx.findOneOrFail(User, current.id), fields) : tx.create(User, fields);
      await tx.flush();
      return made;
    });
  } catch (error) {
    // Two registrations racing for one name: the unique index decides.
    if (error instanceof UniqueConstraintViolationException) {
      throw new TRPCError({ code: 'CONFLICT', message: authTexts.usernameTaken });
    }
    throw error;
  }
  if (current) await dropGuestSamples(ctx.em, current);
  await ctx.session.start(user.id);
  await recordSecurityEvent(ctx.em, requestEvent(ctx, 'sign_in', user.id));
  return { user: user.toPublic() };
}

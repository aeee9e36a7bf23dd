import crypto from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { authTexts, limitTexts } from '../../../shared/texts/index.js';
import { RateLimitError } from '../limits/index.js';
import { rateLimitAddressKey } from '../limits/index.js';
import { User } from '../../db/entities/User.js';
import type { DbContext } from '../../trpc/context.js';
import { accessGrantSeconds } from './session.js';

// The access-key gate (the product spec's REST calls), an alternative way in: the key travels in the
// x-access-key header; passing it gives the visitor a guest account of their own and a session
// for as long as the grant cookie lasts. Guesses count like failed logins (per address, and per
// address under a pseudo-username), before the key is compared.
export async function checkAccess(ctx: DbContext, accessKey: string | undefined) {
  const expected = ctx.deps.config.accessKey;
  if (!expected) throw new TRPCError({ code: 'FORBIDDEN', message: authTexts.accessKeyNotEnabled });
  // No key, no guess: a request without the header (a cross-site <img src=/api/auth/check-access>,
  // a curious visitor) is refused without spending the address's guess budget or touching the
  // visitor's grant.
  if (!accessKey) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.invalidAccessKey });
  }
  const { rateLimits } = ctx.deps;
  const address = rateLimitAddressKey(ctx.clientIp);
  const guessKey = `access-key:${address}`;
  try {
    await rateLimits.loginPerAddress.consume(address);
    await rateLimits.loginPerUsername.consume(guessKey);
  } catch (error) {
    if (!(error instanceof RateLimitError)) throw error;
    const wait = error.retryAfterSeconds;
    throw new RateLimitError(limitTexts.tooManyAccessKeyAttempts(Math.ceil(wait / 60)), wait);
  }
  if (!constantTimeEqual(accessKey, expected)) {
    ctx.session.revokeAccess();
    throw new TRPCError({ code: 'UNAUTHORIZED', message: authTexts.invalidAccessKey });
  }
  await Promise.all([rateLimits.loginPerUsername.reset(guessKey), rateLimits.loginPerAddress.refund(address)]);

  // The same visitor coming back with a valid grant keeps their guest account (and chats).
  const grantedId = await ctx.session.grantedGuest();
  let guest = grantedId ? await ctx.em.findOne(User, { id: grantedId, isDemo: false, isGuest: true }) : null;
  if (!guest) {
    const name = `guest-${crypto.randomBytes(6).toString('hex')}`;
    guest = ctx.em.create(User, { username: name, usernameKey: name, passwordHash: null, fullName: authTexts.guestName, isDemo: false, isGuest: true, guestOrigin: 'access-key' });
    await ctx.em.flush();
  }
  if (ctx.session.userId !== guest.id) await ctx.session.start(guest.id, { lifetimeSeconds: accessGrantSeconds });
  await ctx.session.grantAccess(guest.id);
  return { success: true as const };
}

function constantTimeEqual(a: string, b: string): boolean {
  // Compare digests so that neither the content nor the length leaks through timing.
  const da = crypto.createHash('sha256').update(a).digest();
  const db = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(da, db);
}

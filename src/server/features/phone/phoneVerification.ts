import crypto from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { confirmPhoneVerificationSchema, startPhoneVerificationSchema } from '../../../shared/schemas/phone.js';
import { phoneTexts, phoneVerificationTexts } from '../../../shared/texts/index.js';
import { PhoneVerification } from '../../db/entities/PhoneVerification.js';
import { UserSettings } from '../../db/entities/UserSettings.js';
import type { AppDeps } from '../../deps.js';
import type { AuthedContext } from '../../trpc/context.js';
import { rateLimitAddressKey } from '../limits/index.js';
import { saveUserSettings } from '../profile/index.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';

// Proving a phone number: a 6-digit code goes by SMS to the number; typing it back marks
// the number verified and makes it the profile phone. Only a verified number is called by the
// coach, or trusted as caller ID (phoneTrust.ts).

/** A code works this long, and for this many tries; a new code replaces the old one. */
export const verificationCode = { validMs: 10 * 60_000, maxAttempts: 5, digits: 6 } as const;

// The code is kept as an HMAC under the server's secret, bound to the user and the number: a
// database reader cannot try the million codes offline, and a code is good for nothing else.
function codeHash(deps: Pick<AppDeps, 'sessionPassword'>, userId: number, phone: string, code: string): string {
  return crypto.createHmac('sha256', deps.sessionPassword).update(`phone-verification\0${userId}\0${phone}\0${code}`).digest('hex');
}

export async function startPhoneVerification(ctx: AuthedContext, input: z.output<typeof startPhoneVerificationSchema>) {
  const { sms } = ctx.deps.providers;
  if (!sms) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: phoneVerificationTexts.smsNotConfigured });
  const { allowedCountryPrefixes } = ctx.deps.config.twilio;
  // Toll fraud: texts go only to the countries the operator allows calls to.
  if (!allowedCountryPrefixes.some((prefix) => input.phoneNumber.startsWith(prefix))) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: phoneTexts.countryNotAllowed });
  }
  // Each text costs money and rings a phone: bounded per account, per client address, per number.
  const { rateLimits } = ctx.deps;
  await rateLimits.verificationSmsPerUser.consume(`user:${ctx.user.id}`);
  await rateLimits.verificationSmsPerAddress.consume(rateLimitAddressKey(ctx.clientIp));
  await rateLimits.verificationSmsPerNumber.consume(input.phoneNumber);

  const code = crypto.randomInt(0, 10 ** verificationCode.digits).toString().padStart(verificationCode.digits, '0');
  await ctx.em.upsert(PhoneVerification, {
    user: ctx.user.id,
    phone: input.phoneNumber,
    codeHash: codeHash(ctx.deps, ctx.user.id, input.phoneNumber, code),
    attempts: 0,
    expiresAt: new Date(Date.now() + verificationCode.validMs),
    createdAt: new Date(),
  });
  try {
    await sms.send(input.phoneNumber, phoneVerificationTexts.smsBody(code));
  } catch (error) {
    ctx.deps.log.warn({ err: error }, 'twilio refused the verification text');
    await ctx.em.nativeDelete(PhoneVerification, { user: ctx.user.id });
    throw new TRPCError({ code: 'BAD_GATEWAY', message: phoneVerificationTexts.smsFailed, cause: error });
  }
  return { success: true as const, phoneNumber: input.phoneNumber, expiresInSeconds: verificationCode.validMs / 1000 };
}

export async function confirmPhoneVerification(ctx: AuthedContext, input: z.output<typeof confirmPhoneVerificationSchema>) {
  type Outcome = { ok: true; phone: string } | { ok: false; error: TRPCError };
  // The row is locked while a try is counted, so tries in parallel count one by one.
  const outcome = await ctx.em.transactional(async (em): Promise<Outcome> => {
    const pending = await em.findOne(PhoneVerification, { user: ctx.user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!pending) return { ok: false, error: new TRPCError({ code: 'BAD_REQUEST', message: phoneVerificationTexts.noPendingCode }) };
    if (pending.expiresAt.getTime() <= Date.now()) {
      em.remove(pending);
      return { ok: false, error: new TRPCError({ code: 'BAD_REQUEST', message: phoneVerificationTexts.codeExpired }) };
    }
    const expected = Buffer.from(pending.codeHash, 'hex');
    const actual = Buffer.from(codeHash(ctx.deps, ctx.user.id, pending.phone, input.code), 'hex');
    if (!crypto.timingSafeEqual(expected, actual)) {
      pending.attempts += 1;
      const left = verificationCode.maxAttempts - pending.attempts;
      if (left <= 0) em.remove(pending);
      return { ok: false, error: new TRPCError({ code: 'BAD_REQUEST', message: phoneVerificationTexts.wrongCode(left) }) };
    }
    em.remove(pending);
    // A number proves one account: whoever verified it before (a recycled number) loses it.
    await em.nativeUpdate(UserSettings, { phone: pending.phone, phoneVerifiedAt: { $ne: null }, user: { $ne: ctx.user.id } }, { phoneVerifiedAt: null });
    await saveUserSettings(em, ctx.user.id, { phone: pending.phone, phoneVerifiedAt: new Date() });
    await recordSecurityEvent(em, requestEvent(ctx, 'phone_verified'));
    return { ok: true, phone: pending.phone };
  });
  if (!outcome.ok) throw outcome.error;
  return { success: true as const, phoneNumber: outcome.phone, verified: true as const };
}

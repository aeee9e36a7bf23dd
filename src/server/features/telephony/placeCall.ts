import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { phoneCallSchema } from '../../../shared/schemas/twilio.js';
import { organisationTexts, phoneTexts, phoneVerificationTexts } from '../../../shared/texts/index.js';
import { organisationPolicyOf } from '../../db/organisationPolicy.js';
import { verifiedPhoneOf } from '../phone/index.js';
import type { AuthedContext } from '../../trpc/context.js';
import { consumeCallRequest } from './callRateLimit.js';
import { telephonyProviderOf, telephonySettingsOf, webhookPaths } from './telephonyProvider.js';

// The coach calls the user (the product spec's screens, Receive a call): Twilio dials the number from
// TWILIO_PHONE_NUMBER and fetches the conversation's TwiML from our signed webhooks.
export async function placeCall(ctx: AuthedContext, input: z.output<typeof phoneCallSchema>) {
  const settings = telephonySettingsOf(ctx.deps);
  if (!settings) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: phoneTexts.notConfigured });
  // The member's organisation may have turned phone calls with the coach off.
  if (!(await organisationPolicyOf(ctx.em, ctx.user.id)).phoneCalls) throw new TRPCError({ code: 'FORBIDDEN', message: organisationTexts.member.callsTurnedOff });
  // Toll fraud: only the countries the operator allows.
  if (!settings.allowedCountryPrefixes.some((prefix) => input.phoneNumber.startsWith(prefix))) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: phoneTexts.countryNotAllowed });
  }
  // The coach calls only the account's own verified number.
  if (input.phoneNumber !== (await verifiedPhoneOf(ctx.em, ctx.user.id))) {
    throw new TRPCError({ code: 'FORBIDDEN', message: phoneVerificationTexts.mustVerify });
  }
  await consumeCallRequest(ctx);
  const provider = telephonyProviderOf(ctx.deps);
  try {
    const callSid = await provider.placeCall({
      to: input.phoneNumber,
      // The user who asked is the coach's context on this call (the URL is signed by Twilio).
      url: `${settings.publicUrl}${webhookPaths.incoming}?user=${ctx.user.id}`,
      statusCallback: `${settings.publicUrl}${webhookPaths.status}`,
    });
    return { success: true as const, callSid, message: phoneTexts.callMessage };
  } catch (error) {
    ctx.deps.log.warn({ err: error }, 'twilio refused the call');
    throw new TRPCError({ code: 'BAD_GATEWAY', message: phoneTexts.providerFailed, cause: error });
  }
}

/**
 * What the phone page and a rehearsal's 'Call me' show: whether calls can be placed, to a verified
 * number of the user's, and whether their organisation turned calls off.
 */
export async function telephonyStatus(ctx: Pick<AuthedContext, 'deps' | 'em' | 'user'>) {
  return {
    configured: telephonySettingsOf(ctx.deps) !== null,
    verifiedPhone: (await verifiedPhoneOf(ctx.em, ctx.user.id)) !== null,
    turnedOffByOrganisation: !(await organisationPolicyOf(ctx.em, ctx.user.id)).phoneCalls,
  };
}

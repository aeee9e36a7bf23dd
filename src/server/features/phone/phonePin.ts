import type { z } from 'zod';
import type { phonePinSchema } from '../../../shared/schemas/phone.js';
import type { AuthedContext } from '../../trpc/context.js';
import { saveUserSettings } from '../profile/index.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';
import { hashPhonePin } from './phoneTrust.js';

// The 4-digit PIN a caller keys in when caller ID alone cannot identify them. Stored
// only as a hash (hashPhonePin); nothing reads it back but the call that checks a keyed-in PIN.
export async function setPhonePin(ctx: AuthedContext, input: z.output<typeof phonePinSchema>) {
  await saveUserSettings(ctx.em, ctx.user.id, { phonePinHash: await hashPhonePin(input.pin) });
  await recordSecurityEvent(ctx.em, requestEvent(ctx, 'phone_pin_set'));
  return { success: true as const, pinSet: true };
}

export async function removePhonePin(ctx: AuthedContext) {
  await saveUserSettings(ctx.em, ctx.user.id, { phonePinHash: null });
  await recordSecurityEvent(ctx.em, requestEvent(ctx, 'phone_pin_removed'));
  return { success: true as const, pinSet: false };
}

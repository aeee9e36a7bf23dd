import { z } from 'zod';
import { internationalPhonePattern } from '../settingsConstants.js';
import { phoneVerificationTexts } from '../texts/phoneVerification.js';
import { settingsTexts } from '../texts/settings.js';

// Phone verification and the phone PIN: POST /api/phone/verification,
// POST /api/phone/verification/confirm, PUT and DELETE /api/phone/pin.
export const startPhoneVerificationSchema = z.object({
  phoneNumber: z
    .string({ message: settingsTexts.invalidPhone })
    .max(40, settingsTexts.invalidPhone)
    // People write '+1 (555) 123-4567'; it is stored as '+15551234567'.
    .transform((value) => value.replace(/[\s().-]/g, ''))
    .pipe(z.string().regex(internationalPhonePattern, settingsTexts.invalidPhone)),
});
export type StartPhoneVerificationInput = z.input<typeof startPhoneVerificationSchema>;

export const confirmPhoneVerificationSchema = z.object({
  code: z
    .string({ message: phoneVerificationTexts.codeInvalid })
    .max(20, phoneVerificationTexts.codeInvalid)
    .transform((value) => value.replace(/\s/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, phoneVerificationTexts.codeInvalid)),
});
export type ConfirmPhoneVerificationInput = z.input<typeof confirmPhoneVerificationSchema>;

export const phonePinSchema = z.object({
  pin: z.string({ message: phoneVerificationTexts.pinInvalid }).regex(/^\d{4}$/, phoneVerificationTexts.pinInvalid),
});
export type PhonePinInput = z.input<typeof phonePinSchema>;

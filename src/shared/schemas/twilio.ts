import { z } from 'zod';
import { internationalPhonePattern } from '../settingsConstants.js';
import { phoneTexts } from '../texts/voice.js';

// POST /api/twilio/voice/call (the product spec's validation rules and REST calls): a number in international format.
export const phoneCallSchema = z.object({
  phoneNumber: z
    .string({ message: phoneTexts.numberRequired })
    .max(40, phoneTexts.invalidNumber)
    // People write '+1 (555) 123-4567'; Twilio wants '+15551234567'.
    .transform((value) => value.replace(/[\s().-]/g, ''))
    .pipe(z.string().min(1, phoneTexts.numberRequired).regex(internationalPhonePattern, phoneTexts.invalidNumber)),
});
export type PhoneCallInput = z.input<typeof phoneCallSchema>;

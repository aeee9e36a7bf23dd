import { z } from 'zod';
import { securityTexts } from '../texts/security.js';

// Recent security activity: GET /api/security-events?cursor=&limit=, newest first.
export const securityEventKinds = [
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'session_ended',
  'password_changed',
  'api_key_created',
  'api_key_revoked',
  'data_exported',
  'microsoft_connected',
  'microsoft_disconnected',
  'phone_verified',
  'microsoft_linked',
  'microsoft_unlinked',
  'phone_pin_set',
  'phone_pin_removed',
] as const;
export type SecurityEventKind = (typeof securityEventKinds)[number];

export const securityEventLimits = { defaultPage: 20, maxPage: 100 } as const;

export const listSecurityEventsSchema = z.object({
  /** The `nextCursor` of the page before: events older than it. */
  cursor: z.coerce.number({ message: securityTexts.badCursor }).int(securityTexts.badCursor).positive(securityTexts.badCursor).max(2_147_483_647, securityTexts.badCursor).optional(),
  limit: z.coerce
    .number({ message: securityTexts.badLimit })
    .int(securityTexts.badLimit)
    .min(1, securityTexts.badLimit)
    .max(securityEventLimits.maxPage, securityTexts.badLimit)
    .default(securityEventLimits.defaultPage),
});
export type ListSecurityEventsInput = z.input<typeof listSecurityEventsSchema>;

import { z } from 'zod';
import { meetingLimits } from '../limits.js';
import { meetingsTexts } from '../texts/meetings.js';

// Meetings: the same schemas validate tRPC, the REST paths and the client's forms.
export { meetingLimits };

/** Graph event ids are base64-like strings; anything else cannot be one. */
export const meetingIdSchema = z
  .string({ message: meetingsTexts.badMeetingId })
  .min(1, meetingsTexts.badMeetingId)
  .max(meetingLimits.maxIdLength, meetingsTexts.badMeetingId)
  .regex(/^[A-Za-z0-9_\-=+/.]+$/, meetingsTexts.badMeetingId);

export const listMeetingsSchema = z.object({
  days: z.coerce
    .number({ message: meetingsTexts.badDays })
    .int(meetingsTexts.badDays)
    .min(meetingLimits.minDays, meetingsTexts.badDays)
    .max(meetingLimits.maxDays, meetingsTexts.badDays)
    .default(meetingLimits.defaultDays),
  /** The browser's time zone: dates a demo visitor's sample week when they saved none. */
  timeZone: z.string({ message: meetingsTexts.badTimeZone }).max(64, meetingsTexts.badTimeZone).refine((zone) => isTimeZone(zone), meetingsTexts.badTimeZone).optional(),
});
export type ListMeetingsInput = z.input<typeof listMeetingsSchema>;

export const meetingRefSchema = z.object({
  id: meetingIdSchema,
  /** The browser's time zone: dates a demo visitor's sample meeting when they saved none. */
  timeZone: z.string({ message: meetingsTexts.badTimeZone }).max(64, meetingsTexts.badTimeZone).refine((zone) => isTimeZone(zone), meetingsTexts.badTimeZone).optional(),
});

export const agendaSchema = z.object({
  id: meetingIdSchema,
  text: z
    .string({ message: meetingsTexts.agendaRequired })
    .trim()
    .min(1, meetingsTexts.agendaRequired)
    .max(meetingLimits.maxAgenda, meetingsTexts.agendaTooLong)
    .refine((value) => !value.includes('\u0000'), meetingsTexts.agendaRequired),
});
export type AgendaInput = z.infer<typeof agendaSchema>;

export const reflectionSchema = z.object({
  id: meetingIdSchema,
  text: z
    .string({ message: meetingsTexts.reflectionRequired })
    .trim()
    .min(1, meetingsTexts.reflectionRequired)
    .max(meetingLimits.maxReflection, meetingsTexts.reflectionTooLong)
    .refine((value) => !value.includes('\u0000'), meetingsTexts.reflectionRequired),
});

/** An IANA time zone name (aliases such as Asia/Kolkata included), or UTC. */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
export const timeZoneSchema = z.object({
  timeZone: z.string({ message: meetingsTexts.badTimeZone }).max(64, meetingsTexts.badTimeZone).refine(isTimeZone, meetingsTexts.badTimeZone),
});

export const prepChatSchema = z.object({ chatId: z.number().int().positive().max(2_147_483_647) });

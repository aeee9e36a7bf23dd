import { agendaSchema, listMeetingsSchema, meetingRefSchema, prepChatSchema, reflectionSchema, timeZoneSchema } from '../../../shared/schemas/meetings.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { emailAgenda, saveAgenda } from './agenda.js';
import { listMeetings } from './listMeetings.js';
import { prepMeeting, prepOfChat } from './prepMeeting.js';
import { reflectOnMeeting } from './reflection.js';
import { adoptTimeZone, meetingSettings, saveTimeZone } from './timeZone.js';

// Meetings: the calendar, prep chats, agenda actions on the real meeting, reflections.
// The calendar's connection check answers guests and unconnected users with a 409. An API key
// with `calendar:read` reads the calendar and prepares and reflects on meetings (prep chats are
// the key owner's chats); writing the invite, mailing attendees and settings are never a key's.
const calendarReadProcedure = protectedProcedure.meta({ keys: ['calendar:read'] });

export const meetingsRouter = router({
  list: calendarReadProcedure.input(listMeetingsSchema).query(({ ctx, input }) => listMeetings(ctx, input)),
  prep: calendarReadProcedure.input(meetingRefSchema).mutation(({ ctx, input }) => prepMeeting(ctx, input)),
  prepOfChat: calendarReadProcedure.input(prepChatSchema).query(({ ctx, input }) => prepOfChat(ctx, input)),
  saveAgenda: protectedProcedure.input(agendaSchema).mutation(({ ctx, input }) => saveAgenda(ctx, input)),
  emailAgenda: protectedProcedure.input(agendaSchema).mutation(({ ctx, input }) => emailAgenda(ctx, input)),
  reflect: calendarReadProcedure.input(reflectionSchema).mutation(({ ctx, input }) => reflectOnMeeting(ctx, input)),
  settings: protectedProcedure.query(({ ctx }) => meetingSettings(ctx)),
  setTimeZone: protectedProcedure.input(timeZoneSchema).mutation(({ ctx, input }) => saveTimeZone(ctx, input)),
  // The browser's zone, kept only where none was chosen yet (the app sends it once per session).
  adoptTimeZone: protectedProcedure.input(timeZoneSchema).mutation(({ ctx, input }) => adoptTimeZone(ctx, input)),
});

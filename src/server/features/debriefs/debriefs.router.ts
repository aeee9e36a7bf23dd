import { autoDebriefsSchema, debriefRefSchema, recentMeetingsSchema } from '../../../shared/schemas/debriefs.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { getAutoDebriefs, saveAutoDebriefs } from './autoDebriefs.js';
import { createDebrief, debriefTrends, getDebrief, recentMeetings, rehearseDebrief } from './debriefs.js';

// Debriefs are read from the user's meetings: an API key reaches them only with `calendar:read`
// (a key without it gets 403, whatever the meeting).
const calendarReadProcedure = protectedProcedure.meta({ keys: ['calendar:read'] });

export const debriefsRouter = router({
  create: calendarReadProcedure.input(debriefRefSchema).mutation(({ ctx, input }) => createDebrief(ctx, input)),
  get: calendarReadProcedure.input(debriefRefSchema).query(({ ctx, input }) => getDebrief(ctx, input)),
  rehearse: calendarReadProcedure.input(debriefRefSchema).mutation(({ ctx, input }) => rehearseDebrief(ctx, input)),
  recent: calendarReadProcedure.input(recentMeetingsSchema).query(({ ctx, input }) => recentMeetings(ctx, input)),
  trends: calendarReadProcedure.query(({ ctx }) => debriefTrends(ctx)),
  /** Whether debriefs are made on their own; a setting, never a key's. */
  settings: protectedProcedure.query(({ ctx }) => getAutoDebriefs(ctx)),
  saveSettings: protectedProcedure.input(autoDebriefsSchema).mutation(({ ctx, input }) => saveAutoDebriefs(ctx, input)),
});

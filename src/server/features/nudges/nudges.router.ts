import { nudgeSettingsSchema, runNudgeSchema } from '../../../shared/schemas/nudges.js';
import { browserSessionProcedure, router } from '../../trpc/init.js';
import { getNudgeSettings, listNudgeRuns, runNudgeNow, saveNudgeSettings } from './nudges.js';

// Nudges are the user's own: their browser session only, never an API key (refused before any work).
export const nudgesRouter = router({
  settings: browserSessionProcedure.query(({ ctx }) => getNudgeSettings(ctx)),
  saveSettings: browserSessionProcedure.input(nudgeSettingsSchema).mutation(({ ctx, input }) => saveNudgeSettings(ctx, input)),
  run: browserSessionProcedure.input(runNudgeSchema).mutation(({ ctx, input }) => runNudgeNow(ctx, input)),
  runs: browserSessionProcedure.query(({ ctx }) => listNudgeRuns(ctx)),
});

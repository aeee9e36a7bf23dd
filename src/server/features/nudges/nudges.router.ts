import { nudgeSettingsSchema, runNudgeSchema } from '../../../shared/schemas/nudges.js';
import { accountProcedure, protectedProcedure, router } from '../../trpc/init.js';
import { getNudgeSettings, listNudgeRuns, runNudgeNow, saveNudgeSettings } from './nudges.js';

// Nudges' settings are a registered account's own: its browser session only, never an API key, a
// guest space or the demo template (refused before any work). Except the history, which a demo
// visitor and a guest may read (never an API key): it holds the demo's example weekly review
// (auth/demoExamples.ts), and for anyone else it is empty. And run now, which a visitor
// may ask for too (their first write makes their guest space): a guest's run is written
// in the app only, never mailed, pushed or called (nudgeSettings.ts, inAppOnly).
export const nudgesRouter = router({
  settings: accountProcedure.query(({ ctx }) => getNudgeSettings(ctx)),
  saveSettings: accountProcedure.input(nudgeSettingsSchema).mutation(({ ctx, input }) => saveNudgeSettings(ctx, input)),
  run: protectedProcedure.input(runNudgeSchema).mutation(({ ctx, input }) => runNudgeNow(ctx, input)),
  runs: protectedProcedure.query(({ ctx }) => listNudgeRuns(ctx)),
});

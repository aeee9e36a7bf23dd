import type { z } from 'zod';
import type { NudgeRunView, NudgeSettingsView, nudgeSettingsSchema, runNudgeSchema } from '../../../shared/schemas/nudges.js';
import { NudgeRun, NudgeSetting } from '../../db/entities/Nudge.js';
import type { AuthedContext } from '../../trpc/context.js';
import { timeZoneOf } from '../../db/userTimeZone.js';
import { planWeeklyReview, queueManualRun } from './nudgePlans.js';
import { organisationPolicyOf } from '../../db/organisationPolicy.js';
import { channelsTurnedOff, loadNudgeSettings } from './nudgeSettings.js';
import { nextWeeklyRun } from './schedule.js';

// GET/PUT /api/nudges/settings, POST /api/nudges/run, GET /api/nudges/runs: each user
// reaches only their own settings and runs.

export async function getNudgeSettings(ctx: AuthedContext): Promise<NudgeSettingsView> {
  const settings = await loadNudgeSettings(ctx.em, ctx.user.id);
  const timeZone = await timeZoneOf(ctx.em, ctx.user.id);
  const planned = await ctx.em.findOne(NudgeRun, { owner: ctx.user.id, kind: 'weekly_review', status: 'queued', trigger: 'scheduled' }, { fields: ['dueAt'] });
  // Not planned yet (a new account, before the hourly planning): when it will be.
  const at = planned?.dueAt ?? (settings.weeklyReview.enabled ? nextWeeklyRun(ctx.deps.nudges.clock(), timeZone, settings.weeklyReview.day, settings.weeklyReview.time) : null);
  const turnedOffByOrganisation = channelsTurnedOff(await organisationPolicyOf(ctx.em, ctx.user.id));
  return { ...settings, timeZone, nextRun: at ? { kind: 'weekly_review', at: at.toISOString() } : null, turnedOffByOrganisation };
}

export async function saveNudgeSettings(ctx: AuthedContext, input: z.output<typeof nudgeSettingsSchema>): Promise<NudgeSettingsView> {
  const row = await ctx.em.findOne(NudgeSetting, { user: ctx.user.id });
  if (row) row.settings = input;
  else ctx.em.create(NudgeSetting, { user: ctx.user, settings: input });
  await ctx.em.flush();
  await planWeeklyReview(ctx.em, ctx.deps.nudges.enqueue, ctx.user.id, input, await timeZoneOf(ctx.em, ctx.user.id), ctx.deps.nudges.clock());
  return getNudgeSettings(ctx);
}

/**
 * The weekly review on or off (the profile's weeklyDigest is this setting), the rest of
 * the nudge settings as they are; a registered account's next review is planned or dropped. A
 * guest space is never planned (nudgePlans.ts, planMissingReviews): its setting is only kept.
 */
export async function setWeeklyReview(ctx: AuthedContext, enabled: boolean): Promise<void> {
  const current = await loadNudgeSettings(ctx.em, ctx.user.id);
  if (current.weeklyReview.enabled === enabled) return;
  const settings = { ...current, weeklyReview: { ...current.weeklyReview, enabled } };
  const row = await ctx.em.findOne(NudgeSetting, { user: ctx.user.id });
  if (row) row.settings = settings;
  else ctx.em.create(NudgeSetting, { user: ctx.user, settings });
  await ctx.em.flush();
  if (ctx.user.isGuest || ctx.user.isDemo) return;
  await planWeeklyReview(ctx.em, ctx.deps.nudges.enqueue, ctx.user.id, settings, await timeZoneOf(ctx.em, ctx.user.id), ctx.deps.nudges.clock());
}

export async function runNudgeNow(ctx: AuthedContext, input: z.output<typeof runNudgeSchema>): Promise<{ runId: number }> {
  // Each run may mail, push, call and write a chat, past the weekly cap: so many an hour (429 past it).
  await ctx.deps.rateLimits.nudgeRuns.consume(String(ctx.user.id));
  // A guest's run (a visitor's: their first write made the space) is written in the app only.
  const runId = await queueManualRun(ctx.em, ctx.deps.nudges.enqueue, ctx.user, input.kind, ctx.deps.nudges.clock());
  ctx.deps.nudges.kick();
  return { runId };
}

const maxRuns = 100;

export async function listNudgeRuns(ctx: AuthedContext): Promise<{ runs: NudgeRunView[] }> {
  const runs = await ctx.em.find(NudgeRun, { owner: ctx.user.id }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: maxRuns, populate: ['chat'] });
  return {
    runs: runs.map((run) => ({
      id: run.id,
      kind: run.kind,
      status: run.status,
      channels: run.channels,
      reason: run.reason ?? null,
      // A visitor's copy of the demo's example review chat answers to the template's id, as in the chat list.
      chatId: run.chat ? (run.chat.sampleOf ?? run.chat.id) : null,
      createdAt: run.createdAt.toISOString(),
      dueAt: run.dueAt.toISOString(),
      trigger: run.trigger,
      sample: run.isSample,
    })),
  };
}

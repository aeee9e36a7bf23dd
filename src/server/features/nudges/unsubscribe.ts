import type { EntityManager } from '@mikro-orm/core';
import type { NudgeKind } from '../../../shared/schemas/nudges.js';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import { DebriefSetting } from '../../db/entities/DebriefSetting.js';
import { NudgeRun, NudgeSetting } from '../../db/entities/Nudge.js';
import { planWeeklyReview } from './nudgePlans.js';
import { turnProgramNudgesOff } from '../organisations/index.js';
import type { RunSender } from './nudgeQueuePort.js';
import { loadNudgeSettings } from './nudgeSettings.js';
import { timeZoneOf } from '../../db/userTimeZone.js';

// What the one-click unsubscribe link does (the link itself: unsubscribeToken.ts).

/** Turns the nudge off (and its planned run away); false when the account is gone. */
export async function turnNudgeOff(em: EntityManager, send: RunSender, userId: number, kind: NudgeKind, now: Date): Promise<boolean> {
  if (kind === 'meeting_debrief') return turnAutomaticDebriefsOff(em, userId, now);
  if (kind === 'program') {
    if (!(await turnProgramNudgesOff(em, userId))) return false;
    await em.nativeUpdate(NudgeRun, { owner: userId, kind: 'program', status: 'queued' }, { status: 'skipped', reason: nudgesTexts.reasonTurnedOff, updatedAt: now });
    return true;
  }
  const settings = structuredClone(await loadNudgeSettings(em, userId));
  if (kind === 'weekly_review') settings.weeklyReview.enabled = false;
  else settings.meetingBrief.enabled = false;
  const row = await em.findOne(NudgeSetting, { user: userId });
  if (row) row.settings = settings;
  else {
    const exists = await em.getConnection().execute(`select 1 from "app_user" where "id" = ?`, [userId]);
    if (!exists.length) return false;
    em.create(NudgeSetting, { user: userId, settings });
  }
  await em.flush();
  await planWeeklyReview(em, send, userId, settings, await timeZoneOf(em, userId), now);
  return true;
}

/** A debrief's link: automatic debriefs off, and the debrief nudges still waiting (quiet hours) skipped. */
async function turnAutomaticDebriefsOff(em: EntityManager, userId: number, now: Date): Promise<boolean> {
  const row = await em.findOne(DebriefSetting, { owner: userId });
  if (row) row.automatic = false;
  else {
    const exists = await em.getConnection().execute(`select 1 from "app_user" where "id" = ?`, [userId]);
    if (!exists.length) return false;
    em.create(DebriefSetting, { owner: userId, automatic: false });
  }
  await em.flush();
  await em.nativeUpdate(NudgeRun, { owner: userId, kind: 'meeting_debrief', status: 'queued' }, { status: 'skipped', reason: nudgesTexts.reasonTurnedOff, updatedAt: now });
  return true;
}

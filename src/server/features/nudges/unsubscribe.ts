import type { EntityManager } from '@mikro-orm/core';
import type { NudgeKind } from '../../../shared/schemas/nudges.js';
import { NudgeSetting } from '../../db/entities/Nudge.js';
import { planWeeklyReview } from './nudgePlans.js';
import type { RunSender } from './nudgeQueuePort.js';
import { loadNudgeSettings } from './nudgeSettings.js';
import { timeZoneOf } from '../../db/userTimeZone.js';

// What the one-click unsubscribe link does (the link itself: unsubscribeToken.ts).

/** Turns the nudge off (and its planned run away); false when the account is gone. */
export async function turnNudgeOff(em: EntityManager, send: RunSender, userId: number, kind: NudgeKind, now: Date): Promise<boolean> {
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

import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { nudgeKinds, type NudgeKind } from '../../../shared/schemas/nudges.js';
import { NudgeSetting } from '../../db/entities/Nudge.js';
import { loadNudgeSettings, planWeeklyReview } from './nudgeQueue.js';
import { timeZoneOf } from '../meetings/calendar.js';

// The one-click unsubscribe link of a nudge email: `{userId}.{kind}.{signature}`, signed with a
// key derived from the session secret, so it works without signing in and cannot be forged for
// another user or another nudge.

const keyOf = (secret: string) => crypto.createHmac('sha256', secret).update('nudge-unsubscribe').digest();

function signature(secret: string, userId: number, kind: NudgeKind) {
  return crypto.createHmac('sha256', keyOf(secret)).update(`${userId}.${kind}`).digest('base64url');
}

export function unsubscribeToken(secret: string, userId: number, kind: NudgeKind): string {
  return `${userId}.${kind}.${signature(secret, userId, kind)}`;
}

export function readUnsubscribeToken(secret: string, token: string): { userId: number; kind: NudgeKind } | null {
  const match = /^(\d{1,10})\.([a-z_]{1,20})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  const kind = match[2] as NudgeKind;
  if (!nudgeKinds.includes(kind)) return null;
  const expected = Buffer.from(signature(secret, userId, kind));
  const given = Buffer.from(match[3]!);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? { userId, kind } : null;
}

/** Turns the nudge off (and its planned run away); false when the account is gone. */
export async function turnNudgeOff(em: EntityManager, userId: number, kind: NudgeKind, now: Date): Promise<boolean> {
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
  await planWeeklyReview(em, userId, settings, await timeZoneOf(em, userId), now);
  return true;
}

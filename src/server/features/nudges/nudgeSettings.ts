import type { EntityManager } from '@mikro-orm/core';
import { defaultNudgeSettings, type NudgeChannel, type NudgeSettings } from '../../../shared/schemas/nudges.js';
import { NudgeSetting } from '../../db/entities/Nudge.js';

// A user's nudge settings, and which channels a run may use: the policy every plan and run reads.

export async function loadNudgeSettings(em: EntityManager, userId: number): Promise<NudgeSettings> {
  const row = await em.findOne(NudgeSetting, { user: userId });
  return row?.settings ?? defaultNudgeSettings;
}

/**
 * A guest space's nudges (a visitor's run now) are written in the app only: a guest
 * cannot connect anything outside it, so no email, push or call, whatever its settings hold.
 */
export const inAppOnly = (settings: NudgeSettings): NudgeSettings => ({ ...settings, channels: { email: false, push: false, call: false } });

/** The settings a run of this owner goes by: a guest's or the demo's are in the app only. */
export const settingsFor = (owner: { isGuest: boolean; isDemo: boolean }, stored: NudgeSettings): NudgeSettings => (owner.isGuest || owner.isDemo ? inAppOnly(stored) : stored);

// What a run is planned to use: the app always, email, push and a call when on. Once it runs, its
// channels are those that delivered.
export const activeChannels = (settings: NudgeSettings): NudgeChannel[] => [
  'app',
  ...(settings.channels.email ? (['email'] as const) : []),
  ...(settings.channels.push ? (['push'] as const) : []),
  ...(settings.channels.call ? (['call'] as const) : []),
];

import type { EntityManager } from '@mikro-orm/core';
import { defaultNudgeSettings, type NudgeChannel, type NudgeSettings } from '../../../shared/schemas/nudges.js';
import { NudgeSetting } from '../../db/entities/Nudge.js';
import { organisationPolicyOf, type OrganisationPolicy } from '../../db/organisationPolicy.js';

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

/** The channels beyond the app an organisation turned off: those not in its nudgeChannels, and the call while phone calls are off. */
export const channelsTurnedOff = (policy: Pick<OrganisationPolicy, 'nudgeChannels' | 'phoneCalls'>): Array<keyof NudgeSettings['channels']> =>
  (['email', 'push', 'call'] as const).filter((channel) => !policy.nudgeChannels.includes(channel) || (channel === 'call' && !policy.phoneCalls));

/**
 * The settings a run of this owner goes by, the one place its channels are decided: the member's
 * own, without any channel their organisation turned off (whatever the member's settings say); a
 * guest's or the demo's are in the app only.
 */
export const settingsFor = (owner: { isGuest: boolean; isDemo: boolean }, stored: NudgeSettings, policy: Pick<OrganisationPolicy, 'nudgeChannels' | 'phoneCalls'>): NudgeSettings => {
  if (owner.isGuest || owner.isDemo) return inAppOnly(stored);
  const off = channelsTurnedOff(policy);
  if (!off.length) return stored;
  return { ...stored, channels: { email: stored.channels.email && !off.includes('email'), push: stored.channels.push && !off.includes('push'), call: stored.channels.call && !off.includes('call') } };
};

/** The settings a run of `owner` goes by (settingsFor), read with their organisation's policy. */
export async function runSettingsOf(em: EntityManager, owner: { id: number; isGuest: boolean; isDemo: boolean }): Promise<NudgeSettings> {
  return settingsFor(owner, await loadNudgeSettings(em, owner.id), await organisationPolicyOf(em, owner.id));
}

// What a run is planned to use: the app always, email, push and a call when on. Once it runs, its
// channels are those that delivered.
export const activeChannels = (settings: NudgeSettings): NudgeChannel[] => [
  'app',
  ...(settings.channels.email ? (['email'] as const) : []),
  ...(settings.channels.push ? (['push'] as const) : []),
  ...(settings.channels.call ? (['call'] as const) : []),
];

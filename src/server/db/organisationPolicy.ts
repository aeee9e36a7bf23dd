import type { EntityManager } from '@mikro-orm/core';
import type { NudgeChannel } from '../../shared/schemas/nudges.js';
import { defaultOrgNudgeChannels } from '../../shared/schemas/organisations.js';
import { Organisation } from './entities/Organisation.js';
import { User } from './entities/User.js';

// What a member's organisation allows, read by the features that decide it (nudges, calls, the
// coach's model): the channels nudges may use, whether phone calls with the coach are allowed, and
// the model region. Here, below the features, so that each reads it without reaching into another.

export type OrganisationPolicy = { nudgeChannels: NudgeChannel[]; phoneCalls: boolean; modelRegion: string | null };

/** Everything allowed, the default region: for a user without an organisation row (a database before its first start). */
export const openPolicy: OrganisationPolicy = { nudgeChannels: [...defaultOrgNudgeChannels], phoneCalls: true, modelRegion: null };

export function policyOfOrganisation(organisation: Pick<Organisation, 'nudgeChannels' | 'phoneCalls' | 'modelRegion'> | null): OrganisationPolicy {
  if (!organisation) return openPolicy;
  return { nudgeChannels: organisation.nudgeChannels, phoneCalls: organisation.phoneCalls, modelRegion: organisation.modelRegion ?? null };
}

/** The policy of user `userId`'s organisation. */
export async function organisationPolicyOf(em: EntityManager, userId: number): Promise<OrganisationPolicy> {
  const user = await em.findOne(User, userId, { fields: ['organisationId'] });
  if (!user) return openPolicy;
  return policyOfOrganisation(await em.findOne(Organisation, user.organisationId, { fields: ['nudgeChannels', 'phoneCalls', 'modelRegion'] }));
}

/** The model region of user `userId`'s organisation: what the coach's requests for them name (null: OPENAI_BASE_URL). */
export async function modelRegionOf(em: EntityManager, userId: number): Promise<string | null> {
  return (await organisationPolicyOf(em, userId)).modelRegion;
}

import type { EntityManager } from '@mikro-orm/core';
import { UserSettings } from './entities/UserSettings.js';

/** The user's time zone (their settings'), UTC until they have one. */
export async function timeZoneOf(em: EntityManager, userId: number): Promise<string> {
  const settings = await em.findOne(UserSettings, { user: userId }, { fields: ['timeZone'] });
  return settings?.timeZone ?? 'UTC';
}

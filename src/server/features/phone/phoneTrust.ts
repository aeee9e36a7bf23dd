import type { EntityManager } from '@mikro-orm/core';
import { UserSettings } from '../../db/entities/UserSettings.js';
import { hashPassword, verifyPassword } from '../auth/index.js';

// Who a phone number may stand for. A number identifies a user only once that user has
// proved it with an SMS code; the coach calls no other number. A 4-digit PIN, hashed like a
// password, identifies a caller whose caller ID is not attested.

export const phonePinPattern = /^\d{4}$/;

export function hashPhonePin(pin: string): Promise<string> {
  return hashPassword(pin);
}

export function phonePinMatches(pin: string, stored: string | null | undefined): Promise<boolean> {
  return verifyPassword(pin, stored);
}

/** The id of the user whose verified phone is `phone` (E.164), or null. */
export async function userIdOfVerifiedPhone(em: EntityManager, phone: string): Promise<number | null> {
  // A deprovisioned account's phone names nobody: its calls are a stranger's.
  const settings = await em.findOne(UserSettings, { phone, phoneVerifiedAt: { $ne: null }, user: { active: true } }, { fields: ['user'] });
  return settings ? settings.user.id : null;
}

/** The account's verified phone (E.164), or null when it has none or it is not verified. */
export async function verifiedPhoneOf(em: EntityManager, userId: number): Promise<string | null> {
  const settings = await em.findOne(UserSettings, { user: userId });
  return settings?.phone && settings.phoneVerifiedAt ? settings.phone : null;
}

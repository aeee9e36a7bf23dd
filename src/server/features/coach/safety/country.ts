import type { EntityManager } from '@mikro-orm/core';
import { UserSettings } from '../../../db/entities/UserSettings.js';

// Which country's crisis line a user gets. The app asks nobody for their country, so it is read
// from what the user already told it, in this order:
// 1. the time zone of their profile (the calendar's, saved on the Meetings page or by the
//    browser): "Europe/London" is the UK, "America/Toronto" Canada;
// 2. the calling code of their verified phone number (+44 the UK, +353 Ireland, +61 Australia),
//    and, for a caller nobody knows, the number they call from;
// 3. the operator's default country (SAFETY_DEFAULT_COUNTRY, the US unless configured).
// A zone that names no single country ("UTC", "Etc/GMT+5") tells nothing and is skipped. +1 is
// read as the US: the US and Canada share 988 and 911.

const zoneCountries: Record<string, string> = {
  'Europe/London': 'GB', 'Europe/Belfast': 'GB', 'Europe/Dublin': 'IE', 'Europe/Berlin': 'DE', 'Europe/Busingen': 'DE', 'Europe/Vienna': 'AT',
  'Europe/Paris': 'FR', 'Europe/Madrid': 'ES', 'Africa/Ceuta': 'ES', 'Atlantic/Canary': 'ES', 'Europe/Amsterdam': 'NL', 'Europe/Brussels': 'BE',
  'Europe/Luxembourg': 'LU', 'Europe/Rome': 'IT', 'Europe/Lisbon': 'PT', 'Atlantic/Madeira': 'PT', 'Atlantic/Azores': 'PT', 'Europe/Stockholm': 'SE',
  'Europe/Copenhagen': 'DK', 'Europe/Helsinki': 'FI', 'Europe/Warsaw': 'PL', 'Europe/Prague': 'CZ', 'Europe/Bratislava': 'SK', 'Europe/Budapest': 'HU',
  'Europe/Ljubljana': 'SI', 'Europe/Zagreb': 'HR', 'Europe/Athens': 'GR', 'Europe/Sofia': 'BG', 'Europe/Bucharest': 'RO', 'Europe/Vilnius': 'LT',
  'Europe/Riga': 'LV', 'Europe/Tallinn': 'EE', 'Europe/Malta': 'MT', 'Asia/Nicosia': 'CY', 'Asia/Famagusta': 'CY', 'Europe/Oslo': 'NO', 'Europe/Zurich': 'CH',
  'Pacific/Auckland': 'NZ', 'Pacific/Chatham': 'NZ', 'Pacific/Honolulu': 'US', 'America/Puerto_Rico': 'PR',
};

// Whole regions of the zone database that are one country.
const zonePrefixes: Array<[string, string]> = [
  ['Australia/', 'AU'],
  ['America/Indiana/', 'US'],
  ['America/Kentucky/', 'US'],
  ['America/North_Dakota/', 'US'],
  ['US/', 'US'],
  ['Canada/', 'CA'],
];

const usZones = new Set(
  'New_York Chicago Denver Los_Angeles Phoenix Anchorage Juneau Sitka Yakutat Nome Metlakatla Adak Boise Detroit Menominee Indianapolis Louisville'
    .split(' ')
    .map((city) => `America/${city}`),
);
const canadaZones = new Set(
  'Toronto Vancouver Edmonton Winnipeg Halifax St_Johns Regina Montreal Moncton Glace_Bay Goose_Bay Whitehorse Dawson Dawson_Creek Yellowknife Iqaluit Rankin_Inlet Resolute Cambridge_Bay Inuvik Swift_Current Fort_Nelson Creston Atikokan Blanc-Sablon Thunder_Bay Nipigon Rainy_River'
    .split(' ')
    .map((city) => `America/${city}`),
);

/** The country of an IANA time zone, when the zone names one; null otherwise. */
export function countryOfTimeZone(zone: string | null | undefined): string | null {
  if (!zone) return null;
  if (zoneCountries[zone]) return zoneCountries[zone];
  if (usZones.has(zone)) return 'US';
  if (canadaZones.has(zone)) return 'CA';
  for (const [prefix, country] of zonePrefixes) if (zone.startsWith(prefix)) return country;
  return null;
}

// Calling codes, longest first so that +353 is Ireland before +3... anything shorter.
const callingCodes: Array<[string, string]> = [
  ['+353', 'IE'], ['+358', 'FI'], ['+351', 'PT'], ['+352', 'LU'], ['+356', 'MT'], ['+357', 'CY'], ['+359', 'BG'], ['+370', 'LT'], ['+371', 'LV'], ['+372', 'EE'],
  ['+385', 'HR'], ['+386', 'SI'], ['+420', 'CZ'], ['+421', 'SK'],
  ['+44', 'GB'], ['+61', 'AU'], ['+64', 'NZ'], ['+49', 'DE'], ['+43', 'AT'], ['+33', 'FR'], ['+34', 'ES'], ['+31', 'NL'], ['+32', 'BE'], ['+39', 'IT'],
  ['+46', 'SE'], ['+45', 'DK'], ['+47', 'NO'], ['+48', 'PL'], ['+36', 'HU'], ['+30', 'GR'], ['+40', 'RO'], ['+41', 'CH'],
  ['+1', 'US'],
];

/** The country of a phone number in international format, by its calling code; null when unknown. */
export function countryOfPhone(phone: string | null | undefined): string | null {
  if (!phone?.startsWith('+')) return null;
  const compact = phone.replace(/[\s().-]/g, '');
  return callingCodes.find(([code]) => compact.startsWith(code))?.[1] ?? null;
}

/** A signed-in user's country, from their profile (time zone, then verified phone); null when neither tells. */
export async function loadUserCountry(em: EntityManager, userId: number): Promise<string | null> {
  const settings = await em.findOne(UserSettings, { user: userId }, { fields: ['timeZone', 'phone', 'phoneVerifiedAt'] });
  if (!settings) return null;
  return countryOfTimeZone(settings.timeZone) ?? (settings.phoneVerifiedAt ? countryOfPhone(settings.phone) : null);
}

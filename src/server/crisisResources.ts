import { z } from 'zod';

// The crisis lines and emergency numbers the safety line gives a person in crisis, by country (ISO
// 3166-1 alpha-2). Part of the configuration: config.ts reads the operator's default country, their
// EAP and any lines of their own (SAFETY_CRISIS_LINES) on top of this table. The US, Canadian, UK,
// Irish and Australian numbers are the ones the product's coaching standard names; the others are
// the services' published national numbers, not re-checked from here (this machine reaches no
// website): an operator verifies the lines of the countries they serve, and adds or corrects one
// with SAFETY_CRISIS_LINES rather than relying on the generic answer.

export type CrisisLine = {
  /** Who answers, as a person would say it ("Samaritans", "the 988 Suicide & Crisis Lifeline"). */
  name: string;
  /** As written ("116 123"). */
  number: string;
  /** As said aloud on the phone or in a voice call ("one one six, one two three"); spelt digit by digit when absent. */
  spoken?: string;
  /** "call or text" where texting works too; "call" otherwise. */
  how: 'call' | 'call or text';
};

export type CountryResources = {
  /** The country as it reads after "In": "the US", "the UK", "Ireland". */
  place: string;
  /** The free crisis line, when the country has one in this table; null: the generic directory is named instead. */
  line: CrisisLine | null;
  /** The emergency number(s), the usual one first ("999", then "112"). */
  emergency: string[];
  /** The emergency numbers said aloud ("triple zero"); spelt digit by digit when absent. */
  emergencySpoken?: string[];
};

/** 112 answers in every EU country (and on most mobile networks elsewhere). */
export const genericEmergency = '112';

/** The countries of the EU: 112 is their emergency number, whatever else the table says. */
export const euCountries = [
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
] as const;

/** The built-in table. US, Canada, the UK, Ireland and Australia first: the countries most users are in. */
export const defaultCrisisResources: Record<string, CountryResources> = {
  US: { place: 'the US', line: { name: 'the 988 Suicide & Crisis Lifeline', number: '988', how: 'call or text' }, emergency: ['911'] },
  CA: { place: 'Canada', line: { name: 'the 988 Suicide Crisis Helpline', number: '988', how: 'call or text' }, emergency: ['911'] },
  GB: { place: 'the UK', line: { name: 'Samaritans', number: '116 123', how: 'call' }, emergency: ['999', '112'] },
  IE: { place: 'Ireland', line: { name: 'Samaritans', number: '116 123', how: 'call' }, emergency: ['112', '999'] },
  AU: {
    place: 'Australia',
    line: { name: 'Lifeline', number: '13 11 14', spoken: 'thirteen eleven fourteen', how: 'call' },
    emergency: ['000'],
    emergencySpoken: ['triple zero'],
  },
  NZ: { place: 'New Zealand', line: { name: 'Need to Talk?', number: '1737', spoken: 'one seven three seven', how: 'call or text' }, emergency: ['111'] },
  DE: { place: 'Germany', line: { name: 'TelefonSeelsorge', number: '0800 111 0 111', how: 'call' }, emergency: ['112'] },
  AT: { place: 'Austria', line: { name: 'Telefonseelsorge', number: '142', how: 'call' }, emergency: ['112'] },
  FR: { place: 'France', line: { name: 'the national suicide prevention line', number: '3114', how: 'call' }, emergency: ['112'] },
  ES: { place: 'Spain', line: { name: 'the suicide prevention line', number: '024', how: 'call' }, emergency: ['112'] },
  NL: { place: 'the Netherlands', line: { name: '113 Zelfmoordpreventie', number: '0800 0113', how: 'call' }, emergency: ['112'] },
};

/** An operator's own lines (SAFETY_CRISIS_LINES), each country's entry replacing the built-in one. */
export const crisisLinesSchema = z.record(
  z.string().regex(/^[A-Z]{2}$/, 'country codes are two capital letters such as NZ'),
  z.object({
    place: z.string().min(1).max(60),
    line: z
      .object({
        name: z.string().min(1).max(80),
        number: z.string().regex(/^[0-9 +-]{2,24}$/, 'a number is digits, spaces, + and -'),
        spoken: z.string().min(1).max(80).optional(),
        how: z.enum(['call', 'call or text']).default('call'),
      })
      .nullable(),
    emergency: z.array(z.string().regex(/^[0-9]{2,6}$/, 'an emergency number is 2 to 6 digits')).min(1).max(3),
    emergencySpoken: z.array(z.string().min(1).max(40)).max(3).optional(),
  }),
);

/** What the safety line is configured with (config.ts). */
export type SafetyConfig = {
  /** The country of a user whose country is not known (ISO code, upper case). */
  defaultCountry: string;
  /** The operator's employee assistance programme, when they set one. */
  eap: { name: string; phone: string | null } | null;
  resources: Record<string, CountryResources>;
};

export const defaultSafetyConfig: SafetyConfig = { defaultCountry: 'US', eap: null, resources: defaultCrisisResources };

/** The resources for a country (the operator's default when unknown); one not in the table gets 112 and no line. */
export function resourcesFor(config: SafetyConfig, country: string | null): CountryResources {
  const code = (country ?? config.defaultCountry).toUpperCase();
  // Not in the table: 112 (the EU's number, answered on most mobile networks) and the directory of lines.
  return config.resources[code] ?? { place: '', line: null, emergency: [genericEmergency] };
}

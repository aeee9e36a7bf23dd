import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { speechVoices } from '../shared/schemas/voice.js';
import { modelRegionNamePattern } from '../shared/schemas/organisations.js';
import { trimEndChars } from '../shared/trimText.js';
import { crisisLinesSchema, defaultCrisisResources, type SafetyConfig } from './crisisResources.js';

// The one place that reads the environment (architecture rule 5). Every variable is listed, with a
// comment, in .env.example; a bad value stops the start with a message naming the variable.

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

/**
 * The push services browsers subscribe with: Chrome's and Edge's (FCM), Firefox's (Mozilla's
 * autopush), Safari's (Apple) and Windows' (WNS). Their hosts must resolve to public addresses;
 * a host an operator adds to WEB_PUSH_ALLOWED_HOSTS is trusted as configured.
 */
export const publicPushHosts = ['fcm.googleapis.com', '*.push.services.mozilla.com', '*.push.apple.com', '*.notify.windows.com'] as const;

function isPushHostEntry(entry: string): boolean {
  if (entry.startsWith('[') && entry.endsWith(']')) return net.isIPv6(entry.slice(1, -1));
  if (net.isIPv4(entry)) return true;
  const name = entry.startsWith('*.') ? entry.slice(2) : entry;
  return name.length <= 253 && name.split('.').every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label));
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  SESSION_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  DEMO_MODE: booleanFlag.default(true),
  ACCESS_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  // Web push (nudges): the VAPID key pair (URL-safe base64, as web-push generates them), both or
  // neither (a pair is generated into DATA_DIR when unset), and the contact push services see.
  VAPID_PUBLIC_KEY: z.preprocess(emptyAsUndefined, z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'must be the 65-byte P-256 public key in URL-safe base64').optional()),
  VAPID_PRIVATE_KEY: z.preprocess(emptyAsUndefined, z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the 32-byte private key in URL-safe base64').optional()),
  VAPID_SUBJECT: z.preprocess(emptyAsUndefined, z.string().regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'must be a mailto: address or an https URL').default('mailto:ai-coach@localhost')),
  // Web push: the hosts a push subscription's endpoint may name (comma-separated; `*.` for a domain).
  WEB_PUSH_ALLOWED_HOSTS: z
    .string()
    .default(publicPushHosts.join(','))
    .refine((value) => splitList(value).length > 0 && splitList(value).every(isPushHostEntry), 'must be comma-separated host names such as fcm.googleapis.com,*.push.apple.com (an IP address only as itself, IPv6 in brackets)'),
  // The number of trusted proxy hops in front of the app; true means 1, false 0.
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|yes|no|\d{1,2})$/, 'must be a number of proxy hops (0, 1, 2, ...) or true/false')
    .default('false')
    .transform((value) => (value === 'true' || value === 'yes' ? 1 : value === 'false' || value === 'no' ? 0 : Number(value))),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OPENAI_API_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  OPENAI_BASE_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ message: 'must be a URL such as http://localhost:11434/v1' }).optional(),
  ),
  // Several base URLs of the same model, by region: eu=https://eu.example/v1,us=https://us.example/v1.
  // An organisation's admin picks one for its members' coach (OPENAI_BASE_URL when none is picked).
  OPENAI_REGIONS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .max(10_000)
      .refine((value) => parseModelRegions(value) !== null, 'must be comma-separated name=URL pairs such as eu=https://eu.example/v1,us=https://us.example/v1 (names: lower-case letters, digits, - and _; each name once)')
      .optional(),
  ),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o'),
  OPENAI_MEMORY_MODEL: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  MICROSOFT_CLIENT_ID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  MICROSOFT_CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  MICROSOFT_DEVICE_CODE: z.preprocess(emptyAsUndefined, z.enum(['on', 'off'], { message: 'must be on or off' }).optional()),
  MICROSOFT_MEETING_DEBRIEFS: z.preprocess(emptyAsUndefined, z.enum(['on', 'off'], { message: 'must be on or off' }).default('off')),
  MICROSOFT_TENANT_ID: z.preprocess(emptyAsUndefined, z.string().regex(/^[A-Za-z0-9.-]+$/, 'must be a tenant id or name such as common').default('common')),
  MICROSOFT_AUTHORITY_HOST: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https$/, message: 'must be an https URL such as https://login.microsoftonline.com' }).default('https://login.microsoftonline.com')),
  MICROSOFT_GRAPH_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https$/, message: 'must be an https URL such as https://graph.microsoft.com/v1.0' }).default('https://graph.microsoft.com/v1.0')),
  MICROSOFT_ALLOWED_TENANTS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^\s*[0-9a-fA-F-]{36}(\s*,\s*[0-9a-fA-F-]{36})*\s*$/, 'must be comma-separated tenant ids (GUIDs) such as 72f988bf-86f1-41af-91ab-2d7cd011db47')
      .optional(),
  ),
  PASSWORD_LOGIN: booleanFlag.default(true),
  ORG_ADMINS: z.preprocess(emptyAsUndefined, z.string().max(10_000).optional()),
  ORG_ANALYTICS_MIN_GROUP: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int('must be a whole number').min(3, 'must be at least 3: a smaller group could single someone out').max(1000).default(5),
  ),
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://coach.example.com' }).optional()),
  TOKEN_ENCRYPTION_KEY: z.preprocess(emptyAsUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  TOKEN_ENCRYPTION_PREVIOUS_KEYS: z.preprocess(emptyAsUndefined, z.string().optional()),
  METRICS_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, message: 'must be an http(s) URL such as http://localhost:4318' }).optional()),
  OTEL_SERVICE_NAME: z.preprocess(emptyAsUndefined, z.string().min(1).default('ai-coach')),
  OPENAI_TRANSCRIPTION_MODEL: z.string().min(1).default('whisper-1'),
  OPENAI_SPEECH_MODEL: z.string().min(1).default('tts-1'),
  OPENAI_SPEECH_VOICE: z.enum(speechVoices, { message: `must be one of ${speechVoices.join(', ')}` }).default('alloy'),
  OPENAI_COUNTERPART_VOICE: z.enum(speechVoices, { message: `must be one of ${speechVoices.join(', ')}` }).default('onyx'),
  TWILIO_ACCOUNT_SID: z.preprocess(emptyAsUndefined, z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'must be AC followed by 32 hex digits').optional()),
  TWILIO_AUTH_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  TWILIO_PHONE_NUMBER: z.preprocess(emptyAsUndefined, z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be in international format, such as +15551234567').optional()),
  TWILIO_API_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ message: 'must be a URL such as https://api.twilio.com' }).default('https://api.twilio.com')),
  TWILIO_ALLOWED_COUNTRY_PREFIXES: z
    .string()
    .regex(/^\s*\+\d{1,4}(\s*,\s*\+\d{1,4})*\s*$/, 'must be comma-separated calling codes such as +1,+44')
    .default('+1,+44'),
  TWILIO_RELAY_VOICE: z.preprocess(emptyAsUndefined, z.string().regex(/^[\w.-]{1,100}$/, 'must be a voice name such as en-US-Journey-O').optional()),
  TWILIO_RELAY_COUNTERPART_VOICE: z.string().regex(/^[\w.-]{1,100}$/, 'must be a voice name such as en-US-Journey-D').default('en-US-Journey-D'),
  TWILIO_RELAY_COUNTERPART_TTS_PROVIDER: z.enum(['Google', 'Amazon', 'ElevenLabs'], { message: 'must be Google, Amazon or ElevenLabs' }).default('Google'),
  TWILIO_RELAY_LANGUAGE: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en-US').default('en-US'),
  TWILIO_RELAY_WELCOME_GREETING: z.preprocess(emptyAsUndefined, z.string().min(1).max(500).optional()),
  RATE_LIMIT_VOICE_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  SESSION_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(60, 'must be at least 60').default(7 * 24 * 3600),
  SESSION_LIFETIME_SECONDS: z.coerce.number().int().min(60, 'must be at least 60').default(30 * 24 * 3600),
  SESSION_SOCKET_RECHECK_SECONDS: z.coerce.number().int().min(1, 'must be 1 to 60').max(60, 'must be 1 to 60').default(60),
  RATE_LIMIT_LOGIN_PER_USERNAME: z.coerce.number().int().min(0).default(5),
  RATE_LIMIT_LOGIN_PER_ADDRESS: z.coerce.number().int().min(0).default(20),
  RATE_LIMIT_REGISTER_PER_HOUR: z.coerce.number().int().min(0).default(50),
  RATE_LIMIT_CHAT_PER_MINUTE: z.coerce.number().int().min(0).default(30),
  RATE_LIMIT_GUEST_PER_HOUR: z.coerce.number().int().min(0).default(30),
  RATE_LIMIT_NUDGE_RUNS_PER_HOUR: z.coerce.number().int().min(0).default(5),
  DEMO_GUEST_IDLE_HOURS: z.coerce.number().int().min(1, 'must be at least 1').default(72),
  MODEL_STALL_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(60),
  MODEL_DAILY_QUOTA: z.coerce.number({ message: 'must be a whole number (0 turns the quota off)' }).int().min(0).default(200),
  MODEL_DAILY_QUOTA_PER_ADDRESS: z.coerce.number({ message: 'must be a whole number (0 turns the quota off)' }).int().min(0).default(1000),
  // The safety line: the country of a user whose country is not known, the operator's EAP, and
  // crisis lines of the operator's own on top of the built-in table (src/server/crisisResources.ts).
  SAFETY_DEFAULT_COUNTRY: z.preprocess(emptyAsUndefined, z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as US or GB').default('US')),
  SAFETY_EAP_NAME: z.preprocess(emptyAsUndefined, z.string().min(1).max(80).optional()),
  SAFETY_EAP_PHONE: z.preprocess(emptyAsUndefined, z.string().regex(/^\+?[0-9][0-9 -]{1,22}[0-9]$/, 'must be a phone number of digits, spaces and dashes, such as 0800 123 4567').optional()),
  SAFETY_CRISIS_LINES: z.preprocess(emptyAsUndefined, z.string().optional()),
  TRUSTED_ADDRESSES: z
    .string()
    .default('')
    .refine((value) => splitList(value).every(isAddressOrRange), 'must be comma-separated IP addresses or CIDR ranges such as 203.0.113.7,10.0.0.0/8,2001:db8::/48'),
});

function splitList(value: string): string[] {
  return value.split(',').map((item) => item.trim()).filter(Boolean);
}

function isAddressOrRange(item: string): boolean {
  const [address, prefix, ...rest] = item.split('/');
  if (rest.length || !address) return false;
  const family = net.isIP(address);
  if (!family) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecret: string | undefined;
  demoMode: boolean;
  /** Username and password sign-in and registration; false leaves Microsoft as the only way in. */
  passwordLogin: boolean;
  accessKey: string | undefined;
  /** Trusted proxy hops in front of the app (0: none). */
  trustProxy: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** memoryModel: the (smaller) model that picks memories from messages; the chat's model when unset. */
  /** regions: OPENAI_REGIONS' base URLs by name (empty when unset), an organisation's choice. */
  openai: { apiKey: string | undefined; baseUrl: string | undefined; model: string; memoryModel: string | undefined; regions: ModelRegion[] };
  microsoft: MicrosoftConfig;
  /** Speech models at the same OpenAI-compatible server. */
  /**
   * Speech models at the same OpenAI-compatible server; the coach's voice and the one a rehearsal's
   * other person speaks with (chosen on the server by the chat's role).
   */
  voice: { transcriptionModel: string; speechModel: string; coachVoice: (typeof speechVoices)[number]; counterpartVoice: (typeof speechVoices)[number] };
  twilio: {
    accountSid: string | undefined;
    authToken: string | undefined;
    phoneNumber: string | undefined;
    apiBaseUrl: string;
    allowedCountryPrefixes: string[];
    /** ConversationRelay's text-to-speech voice (Twilio's default when unset), language and greeting. */
    relay: {
      voice: string | undefined;
      language: string;
      welcomeGreeting: string | undefined;
      /** The voice (and its text-to-speech provider) of a rehearsal's other person on the phone. */
      counterpart: { voice: string; ttsProvider: 'Google' | 'Amazon' | 'ElevenLabs' };
    };
  };
  /** The origin the telephony provider calls back (webhooks are signed for it); no trailing slash. */
  publicUrl: string | undefined;
  sessions: { idleSeconds: number; lifetimeSeconds: number; socketRecheckSeconds: number };
  /** Requests allowed per window; 0 turns a limit off. */
  rateLimits: { loginPerUsername: number; loginPerAddress: number; registerPerHour: number; chatPerMinute: number; voicePerMinute: number; guestPerHour: number; nudgeRunsPerHour: number };
  /** A guest space unused this long is deleted with all its data. */
  guestIdleHours: number;
  modelStallTimeoutMs: number;
  /** Model turns per user and UTC day; 0 = no limit. */
  modelDailyQuota: number;
  /**
   * Model turns per client address (/64 for IPv6) and UTC day, over every account from it; 0 = no
   * limit. Not taken by accounts older than a day, nor from `trustedAddresses`.
   */
  modelDailyQuotaPerAddress: number;
  /** Addresses and CIDR ranges (an office's NAT, a load tester) the per-address model budget leaves alone. */
  trustedAddresses: string[];
  telemetry: TelemetryConfig;
  /** The safety line's crisis resources by country, the default country and the EAP (crisisResources.ts). */
  safety: SafetyConfig;
  /** Web push: the VAPID pair when configured (both set), and the contact sent to push services. */
  vapid: { publicKey: string | undefined; privateKey: string | undefined; subject: string };
  /**
   * The hosts (lower case; `*.` a domain) a push endpoint may name. Those of `publicPushHosts` must
   * resolve to public addresses at each delivery; any other the operator listed is trusted as configured.
   */
  webPushAllowedHosts: string[];
  /**
   * The deployment's organisation: who the operator names its admins (usernames, emails or Entra
   * object ids, lower case), beside those an admin named; the analytics' privacy floor (no figure
   * counts fewer people).
   */
  organisation: { admins: string[]; analyticsMinGroup: number };
};

export type TelemetryConfig = {
  /** GET /metrics answers only with `Authorization: Bearer <this>`; off when unset. */
  metricsToken: string | undefined;
  /** OTLP/HTTP traces go to `<this>/v1/traces`; no tracing code is loaded when unset. */
  otlpEndpoint: string | undefined;
  serviceName: string;
};

export type MicrosoftConfig = {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /**
   * Device-code sign-in (a code typed at microsoft.com/devicelogin). A user can send that code to
   * another person, whose sign-in then reads as this app's: off by default once the app has a
   * client secret (a web app that can use the browser sign-in), on without one.
   */
  deviceCode: boolean;
  tenantId: string;
  authorityHost: string;
  graphBaseUrl: string;
  /** The app's own public URL (redirect URIs); undefined means the server's own URL. */
  publicUrl: string | undefined;
  /** Encrypts provider tokens at rest; generated into DATA_DIR when not set. */
  tokenKey: string | undefined;
  /** Older keys still accepted for reading tokens written before a rotation. */
  previousTokenKeys: string[];
  /** Tenant ids (lower case) whose accounts may sign in with Microsoft; empty: any tenant. */
  allowedTenants: string[];
  /**
   * Debriefs of Teams meetings from their transcripts: the calendar's sign-in then also asks for
   * OnlineMeetings.Read and OnlineMeetingTranscript.Read.All (which an administrator may have to allow).
   */
  meetingDebriefs?: boolean;
};

export class ConfigError extends Error {}

/** A base URL of the model by region name (OPENAI_REGIONS). */
export type ModelRegion = { name: string; baseUrl: string };

/** OPENAI_REGIONS read: name=URL pairs, comma-separated, each name once; null when it cannot be read. */
export function parseModelRegions(value: string): ModelRegion[] | null {
  const regions: ModelRegion[] = [];
  for (const entry of splitList(value)) {
    const at = entry.indexOf('=');
    const name = entry.slice(0, at).trim();
    const baseUrl = entry.slice(at + 1).trim();
    if (at < 1 || !modelRegionNamePattern.test(name) || regions.some((r) => r.name === name)) return null;
    if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) return null;
    regions.push({ name, baseUrl });
  }
  return regions.length ? regions : null;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example.`);
  }
  const e = parsed.data;
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither\nSee .env.example.');
  }
  if (e.SAFETY_EAP_PHONE && !e.SAFETY_EAP_NAME) {
    throw new ConfigError('Invalid configuration:\n  SAFETY_EAP_PHONE: set SAFETY_EAP_NAME too (the name people are told to call)\nSee .env.example.');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    sessionSecret: e.SESSION_SECRET,
    demoMode: e.DEMO_MODE,
    passwordLogin: e.PASSWORD_LOGIN,
    accessKey: e.ACCESS_KEY,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    openai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL, model: e.OPENAI_MODEL, memoryModel: e.OPENAI_MEMORY_MODEL, regions: e.OPENAI_REGIONS ? parseModelRegions(e.OPENAI_REGIONS)! : [] },
    microsoft: {
      clientId: e.MICROSOFT_CLIENT_ID,
      clientSecret: e.MICROSOFT_CLIENT_SECRET,
      deviceCode: e.MICROSOFT_DEVICE_CODE === undefined ? !e.MICROSOFT_CLIENT_SECRET : e.MICROSOFT_DEVICE_CODE === 'on',
      tenantId: e.MICROSOFT_TENANT_ID,
      authorityHost: trimEndChars(e.MICROSOFT_AUTHORITY_HOST, '/'),
      graphBaseUrl: trimEndChars(e.MICROSOFT_GRAPH_BASE_URL, '/'),
      publicUrl: (e.PUBLIC_URL === undefined ? undefined : trimEndChars(e.PUBLIC_URL, '/')),
      tokenKey: e.TOKEN_ENCRYPTION_KEY,
      previousTokenKeys: (e.TOKEN_ENCRYPTION_PREVIOUS_KEYS ?? '').split(',').map((key) => key.trim()).filter(Boolean),
      allowedTenants: (e.MICROSOFT_ALLOWED_TENANTS ?? '').split(',').map((id) => id.trim().toLowerCase()).filter(Boolean),
      meetingDebriefs: e.MICROSOFT_MEETING_DEBRIEFS === 'on',
    },
    voice: { transcriptionModel: e.OPENAI_TRANSCRIPTION_MODEL, speechModel: e.OPENAI_SPEECH_MODEL, coachVoice: e.OPENAI_SPEECH_VOICE, counterpartVoice: e.OPENAI_COUNTERPART_VOICE },
    twilio: {
      accountSid: e.TWILIO_ACCOUNT_SID,
      authToken: e.TWILIO_AUTH_TOKEN,
      phoneNumber: e.TWILIO_PHONE_NUMBER,
      apiBaseUrl: trimEndChars(e.TWILIO_API_BASE_URL, '/'),
      allowedCountryPrefixes: e.TWILIO_ALLOWED_COUNTRY_PREFIXES.split(',').map((prefix) => prefix.trim()),
      relay: {
        voice: e.TWILIO_RELAY_VOICE,
        language: e.TWILIO_RELAY_LANGUAGE,
        welcomeGreeting: e.TWILIO_RELAY_WELCOME_GREETING,
        counterpart: { voice: e.TWILIO_RELAY_COUNTERPART_VOICE, ttsProvider: e.TWILIO_RELAY_COUNTERPART_TTS_PROVIDER },
      },
    },
    publicUrl: (e.PUBLIC_URL === undefined ? undefined : trimEndChars(e.PUBLIC_URL, '/')),
    sessions: { idleSeconds: e.SESSION_IDLE_TIMEOUT_SECONDS, lifetimeSeconds: e.SESSION_LIFETIME_SECONDS, socketRecheckSeconds: e.SESSION_SOCKET_RECHECK_SECONDS },
    rateLimits: {
      loginPerUsername: e.RATE_LIMIT_LOGIN_PER_USERNAME,
      loginPerAddress: e.RATE_LIMIT_LOGIN_PER_ADDRESS,
      registerPerHour: e.RATE_LIMIT_REGISTER_PER_HOUR,
      chatPerMinute: e.RATE_LIMIT_CHAT_PER_MINUTE,
      voicePerMinute: e.RATE_LIMIT_VOICE_PER_MINUTE,
      guestPerHour: e.RATE_LIMIT_GUEST_PER_HOUR,
      nudgeRunsPerHour: e.RATE_LIMIT_NUDGE_RUNS_PER_HOUR,
    },
    guestIdleHours: e.DEMO_GUEST_IDLE_HOURS,
    modelStallTimeoutMs: e.MODEL_STALL_TIMEOUT_SECONDS * 1000,
    modelDailyQuota: e.MODEL_DAILY_QUOTA,
    modelDailyQuotaPerAddress: e.MODEL_DAILY_QUOTA_PER_ADDRESS,
    trustedAddresses: splitList(e.TRUSTED_ADDRESSES),
    safety: {
      defaultCountry: e.SAFETY_DEFAULT_COUNTRY.toUpperCase(),
      eap: e.SAFETY_EAP_NAME ? { name: e.SAFETY_EAP_NAME, phone: e.SAFETY_EAP_PHONE ?? null } : null,
      resources: { ...defaultCrisisResources, ...crisisLines(e.SAFETY_CRISIS_LINES) },
    },
    vapid: { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT },
    webPushAllowedHosts: splitList(e.WEB_PUSH_ALLOWED_HOSTS).map((host) => host.toLowerCase()),
    organisation: { admins: splitList(e.ORG_ADMINS ?? '').map((name) => name.toLowerCase()), analyticsMinGroup: e.ORG_ANALYTICS_MIN_GROUP },
    telemetry: { metricsToken: e.METRICS_TOKEN, otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT === undefined ? undefined : trimEndChars(e.OTEL_EXPORTER_OTLP_ENDPOINT, '/'), serviceName: e.OTEL_SERVICE_NAME },
  };
}

/** SAFETY_CRISIS_LINES: a JSON object of country code to its resources, each replacing the built-in entry. */
function crisisLines(json: string | undefined): SafetyConfig['resources'] {
  if (!json) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new ConfigError('Invalid configuration:\n  SAFETY_CRISIS_LINES: must be JSON, such as {"NZ":{"place":"New Zealand","line":{"name":"Need to Talk?","number":"1737"},"emergency":["111"]}}\nSee .env.example.');
  }
  const parsed = crisisLinesSchema.safeParse(value);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  SAFETY_CRISIS_LINES.${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example.`);
  }
  return parsed.data;
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}

import { createOpenAiDebriefCoach, type DebriefCoachModel } from './ai/debriefCoach.js';
import type { Config } from '../config.js';
import { instrumentMethods, type Telemetry } from '../telemetry/telemetry.js';
import { createOpenAiMemoryExtractor, type MemoryExtractor } from './ai/memoryExtractor.js';
import { createOpenAiRehearsalJudge, type RehearsalJudge } from './ai/rehearsalJudge.js';
import { createWebPush, type PushSender } from './push/webPush.js';
import { createTwilioCalls, type TelephonyProvider } from './telephony/twilioCalls.js';
import { createTwilioMessages, type SmsProvider } from './telephony/twilioMessages.js';
import { createOpenAiVoice, type VoiceProvider } from './voice/openaiVoice.js';

// The outside services besides the coach model and Microsoft 365, each built once per server from
// its configuration (compose.ts calls this, and nothing else does), each call counted and traced
// like the model's and Graph's (telemetry/telemetry.ts: provider, operation, outcome; never text).
// A provider left unconfigured is null: the feature then answers why it is unavailable.

export type Providers = {
  /** Speech to text and speech (OPENAI_API_KEY, at OPENAI_BASE_URL or the speaker's organisation's model region). */
  voice: VoiceProvider | null;
  /** Text messages (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_PHONE_NUMBER). */
  sms: SmsProvider | null;
  /** Outgoing calls (the same, and PUBLIC_URL for Twilio's webhooks). */
  calls: TelephonyProvider | null;
  /** Web push, signed with the VAPID keys (VAPID_* or a pair kept in DATA_DIR). */
  push: PushSender;
  /** The model's memory extraction (OPENAI_API_KEY; OPENAI_MEMORY_MODEL or the coach's model); null: the offline rules. */
  memoryExtractor: MemoryExtractor | null;
  /** The model's rehearsal judgement (OPENAI_API_KEY); null: the rubric's checks. */
  judge: RehearsalJudge | null;
  /** The model's reading of a meeting debrief (OPENAI_API_KEY); null: the offline coach. */
  debriefCoach: DebriefCoachModel | null;
};

/** Twilio's settings complete enough to place calls and check webhooks, or null. */
export function telephonySettings(config: Pick<Config, 'twilio' | 'publicUrl'>) {
  const { accountSid, authToken, phoneNumber, apiBaseUrl, allowedCountryPrefixes } = config.twilio;
  const { publicUrl } = config;
  if (!accountSid || !authToken || !phoneNumber || !publicUrl) return null;
  return { accountSid, authToken, phoneNumber, apiBaseUrl, allowedCountryPrefixes, publicUrl };
}

export function createProviders(config: Config, telemetry: Telemetry): Providers {
  // Every OpenAI call names the model region of its user's organisation (OPENAI_REGIONS); none: OPENAI_BASE_URL.
  const { apiKey, baseUrl, regions, model, memoryModel } = config.openai;
  const { accountSid, authToken, phoneNumber, apiBaseUrl } = config.twilio;
  const twilio = accountSid && authToken && phoneNumber ? { accountSid, authToken, phoneNumber, apiBaseUrl } : null;
  const calls = telephonySettings(config);
  return {
    voice: apiKey
      ? instrumentMethods(createOpenAiVoice({ apiKey, baseUrl, regions, ...config.voice }), telemetry, 'openai', { transcribe: 'speech_to_text', synthesize: 'speech' })
      : null,
    sms: twilio ? instrumentMethods(createTwilioMessages(twilio), telemetry, 'twilio', { send: 'sms' }) : null,
    calls: calls ? instrumentMethods(createTwilioCalls(calls), telemetry, 'twilio', ['placeCall']) : null,
    push: instrumentMethods(createWebPush(config), telemetry, 'web_push', { send: 'push' }),
    memoryExtractor: apiKey
      ? instrumentMethods(createOpenAiMemoryExtractor({ apiKey, baseUrl, regions, model: memoryModel ?? model }), telemetry, 'openai', { extract: 'memory_extraction' })
      : null,
    judge: apiKey ? instrumentMethods(createOpenAiRehearsalJudge({ apiKey, baseUrl, regions, model }), telemetry, 'openai', { judge: 'rehearsal_judge' }) : null,
    debriefCoach: apiKey ? instrumentMethods(createOpenAiDebriefCoach({ apiKey, baseUrl, regions, model }), telemetry, 'openai', { read: 'debrief_coach' }) : null,
  };
}

import type { AppDeps } from '../../deps.js';
import { createTwilioCalls, type TelephonyProvider } from '../../providers/telephony/twilioCalls.js';
import { instrumentMethods } from '../../telemetry/telemetry.js';

// Twilio settings complete enough to place calls and check webhooks, or null (the phone card
// then explains what to configure).
export function telephonySettingsOf(deps: AppDeps) {
  const { accountSid, authToken, phoneNumber, apiBaseUrl, allowedCountryPrefixes } = deps.config.twilio;
  const { publicUrl } = deps.config;
  if (!accountSid || !authToken || !phoneNumber || !publicUrl) return null;
  return { accountSid, authToken, phoneNumber, apiBaseUrl, allowedCountryPrefixes, publicUrl };
}

const providers = new WeakMap<AppDeps, TelephonyProvider>();

export function telephonyProviderOf(deps: AppDeps, settings: NonNullable<ReturnType<typeof telephonySettingsOf>>): TelephonyProvider {
  let provider = providers.get(deps);
  if (!provider) {
    provider = instrumentMethods(createTwilioCalls(settings), deps.telemetry, 'twilio', ['placeCall']);
    providers.set(deps, provider);
  }
  return provider;
}

export const webhookPaths = {
  incoming: '/api/twilio/voice/incoming',
  status: '/api/twilio/voice/status',
  /** A goal check-in call the reminder job placed (features/goals/goalCheckInCall.ts). */
  goalCheckIn: '/api/twilio/voice/goal-check-in',
  /** How a nudge's call ended (features/nudges/nudgeCall.ts): one not answered fails its run. */
  nudgeCallStatus: '/api/twilio/voice/nudge-call-status',
} as const;

/** Twilio ConversationRelay's WebSocket (conversationRelay.ts). */
export const relayPath = '/api/twilio/relay';

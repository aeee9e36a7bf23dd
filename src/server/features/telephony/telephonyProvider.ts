import type { AppDeps } from '../../deps.js';
import { telephonySettings } from '../../providers/providers.js';
import type { TelephonyProvider } from '../../providers/telephony/twilioCalls.js';

// Twilio settings complete enough to place calls and check webhooks, or null (the phone card
// then explains what to configure).
export function telephonySettingsOf(deps: Pick<AppDeps, 'config'>) {
  return telephonySettings(deps.config);
}

/** The calls provider compose.ts built: there is one whenever telephonySettingsOf is not null. */
export function telephonyProviderOf(deps: Pick<AppDeps, 'providers'>): TelephonyProvider {
  const { calls } = deps.providers;
  if (!calls) throw new Error('Twilio is not configured for calls');
  return calls;
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

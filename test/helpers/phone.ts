import { XMLParser } from 'fast-xml-parser';
import { postSignedWebhook, type FakeTwilio } from '../fakes/twilio/index.js';
import { connectRelay, newCallSid, type RelayClient } from '../fakes/twilio/relay.js';
import type { HttpClient } from './server.js';

/** The code of the last verification text the fake Twilio sent to `phone`. */
export function lastCodeSentTo(twilio: FakeTwilio, phone: string): string {
  const message = twilio.messages.filter((m) => m.to === phone).at(-1);
  const code = message ? /\b(\d{6})\b/.exec(message.body)?.[1] : undefined;
  if (!code) throw new Error(`no verification code was texted to ${phone}`);
  return code;
}

/** Verifies `phone` (E.164) for the signed-in user the way a person does: the SMS code, typed back. */
export async function verifyPhone(http: HttpClient, twilio: FakeTwilio, phone: string): Promise<void> {
  const sent = await http.post('/api/phone/verification', { phoneNumber: phone });
  if (sent.status !== 200) throw new Error(`verification not sent: ${sent.status} ${sent.text}`);
  const confirmed = await http.post('/api/phone/verification/confirm', { code: lastCodeSentTo(twilio, phone) });
  if (confirmed.status !== 200) throw new Error(`verification not confirmed: ${confirmed.status} ${confirmed.text}`);
}

/**
 * The environment of a server that places and answers calls through the fake Twilio: its account,
 * the app's number and API base, and the public address the webhooks are signed over.
 */
export function twilioEnv(twilio: FakeTwilio, publicUrl = 'https://coach.example.com'): Record<string, string> {
  return {
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_PHONE_NUMBER: '+15550001111',
    TWILIO_API_BASE_URL: twilio.url,
    PUBLIC_URL: publicUrl,
  };
}

/**
 * An incoming call from `from`, answered by the app's webhook and connected over its relay as
 * Twilio does (the webhook signed for `publicUrl`, sent to `appUrl`), then set up. The caller
 * closes `client` when done.
 */
export async function callIn(options: { appUrl: string; publicUrl: string; authToken: string; from: string }): Promise<{ client: RelayClient; callSid: string; greeting: string }> {
  const { appUrl, publicUrl, authToken, from } = options;
  const callSid = newCallSid();
  const res = await postSignedWebhook({
    authToken,
    signedUrl: `${publicUrl}/api/twilio/voice/incoming`,
    targetUrl: `${appUrl}/api/twilio/voice/incoming`,
    params: { CallSid: callSid, From: from, To: '+15550001111', Direction: 'inbound' },
  });
  if (res.status !== 200) throw new Error(`the incoming-call webhook answered ${res.status}: ${res.text}`);
  const relay = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(res.text).Response.Connect.ConversationRelay;
  const client = await connectRelay({ targetUrl: `${appUrl.replace('http', 'ws')}/api/twilio/relay`, signedUrl: relay['@url'], authToken });
  client.setup({ callSid, callId: relay.Parameter['@value'], from });
  return { client, callSid, greeting: relay['@welcomeGreeting'] as string };
}

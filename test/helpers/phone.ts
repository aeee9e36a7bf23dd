import type { FakeTwilio } from '../fakes/twilio/index.js';
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

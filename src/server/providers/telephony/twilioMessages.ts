import twilio from 'twilio';
import { RewritingRequestClient } from './twilioCalls.js';

// Text messages through the official twilio SDK's Messages API (phone verification
// codes), from TWILIO_PHONE_NUMBER, at TWILIO_API_BASE_URL (a local fake in tests).

export type SmsSettings = { accountSid: string; authToken: string; phoneNumber: string; apiBaseUrl: string };

export interface SmsProvider {
  /** Sends `body` to `to`; answers the message's id. */
  send(to: string, body: string): Promise<string>;
}

export function createTwilioMessages(settings: SmsSettings): SmsProvider {
  const httpClient = settings.apiBaseUrl === 'https://api.twilio.com' ? undefined : new RewritingRequestClient(settings.apiBaseUrl);
  const client = twilio(settings.accountSid, settings.authToken, { httpClient });
  return {
    async send(to, body) {
      const message = await client.messages.create({ to, from: settings.phoneNumber, body });
      return message.sid;
    },
  };
}

import twilio from 'twilio';
type RequestOptions<TData> = Parameters<typeof twilio.RequestClient.prototype.request<TData>>[0];

// Outgoing calls through the official twilio SDK. Its `edge` and `region` options only change the
// host name, never the scheme or port (STACK.md), so a RequestClient that rewrites Twilio's API
// origin is what points the SDK at TWILIO_API_BASE_URL (a local fake in tests).

const twilioApiOrigin = 'https://api.twilio.com';

class RewritingRequestClient extends twilio.RequestClient {
  constructor(private readonly apiBaseUrl: string) {
    super({ timeout: 15_000 });
  }

  override request<TData>(opts: RequestOptions<TData>) {
    const uri = opts.uri.startsWith(twilioApiOrigin) ? this.apiBaseUrl + opts.uri.slice(twilioApiOrigin.length) : opts.uri;
    return super.request<TData>({ ...opts, uri });
  }
}

export type OutgoingCall = {
  to: string;
  /** Absolute URL of the webhook that answers with the call's TwiML. */
  url: string;
  statusCallback: string;
};

export interface TelephonyProvider {
  readonly phoneNumber: string;
  /** Asks the provider to call `to`; answers the call's id. */
  placeCall(call: OutgoingCall): Promise<string>;
}

export type TwilioSettings = { accountSid: string; authToken: string; phoneNumber: string; apiBaseUrl: string };

export function createTwilioCalls(settings: TwilioSettings): TelephonyProvider {
  const httpClient = settings.apiBaseUrl === twilioApiOrigin ? undefined : new RewritingRequestClient(settings.apiBaseUrl);
  const client = twilio(settings.accountSid, settings.authToken, { httpClient });
  return {
    phoneNumber: settings.phoneNumber,
    async placeCall({ to, url, statusCallback }) {
      const call = await client.calls.create({ to, from: settings.phoneNumber, url, method: 'POST', statusCallback, statusCallbackMethod: 'POST' });
      return call.sid;
    },
  };
}

/** X-Twilio-Signature check for a webhook Twilio posted to `fullUrl` (the public URL it called). */
export function isSignedByTwilio(authToken: string, signature: string | undefined, fullUrl: string, params: Record<string, string>): boolean {
  if (!signature) return false;
  return twilio.validateRequest(authToken, signature, fullUrl, params);
}

export function newVoiceResponse() {
  return new twilio.twiml.VoiceResponse();
}

export { RewritingRequestClient };

import { XMLParser } from 'fast-xml-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { relayGrantSeconds } from '../../src/server/features/telephony/relayGrant.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { postSignedWebhook, startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';
import { connectRelay, newCallSid, type RelayClient } from '../fakes/twilio/relay.js';
import { twilioEnv } from '../helpers/phone.js';

// The relay handshake's signature is bound to one call and has a short life. Twilio
// signs the handshake over the relay URL of the call's TwiML; that URL used to be the same for every
// call, so one captured signature opened a relay for any call, forever. It now names the call and an
// expiry under the server's secret.
const publicUrl = 'https://coach.example.com';

describe('relay handshake bound to the call', { timeout: 60_000 }, () => {
  let twilio: FakeTwilio;
  let server: TestServer;
  const open: RelayClient[] = [];

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    server = await startTestServer({
      DEMO_MODE: 'false',
      ...twilioEnv(twilio, publicUrl),
    });
  }, 120_000);
  afterEach(() => vi.useRealTimers());
  afterAll(async () => {
    for (const client of open) client.close();
    await server?.stop();
    await twilio?.close();
  });

  const target = () => `${server.url.replace('http', 'ws')}/api/twilio/relay`;

  async function answered() {
    const callSid = newCallSid();
    const res = await postSignedWebhook({
      authToken: twilio.authToken,
      signedUrl: `${publicUrl}/api/twilio/voice/incoming`,
      targetUrl: `${server.url}/api/twilio/voice/incoming`,
      params: { CallSid: callSid, From: '+15557770001', To: '+15550001111', Direction: 'inbound' },
    });
    const relay = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(res.text).Response.Connect.ConversationRelay;
    return { callSid, callId: relay.Parameter['@value'] as string, url: relay['@url'] as string };
  }

  it('gives each call its own relay URL, and a handshake signed for one call cannot set up another', async () => {
    const a = await answered();
    const b = await answered();
    expect(a.url).not.toBe(b.url);
    // Signed (and connected) with call A's URL, the setup names call B: closed without a word.
    const client = await connectRelay({ targetUrl: target(), signedUrl: a.url, authToken: twilio.authToken });
    open.push(client);
    client.setup({ callSid: b.callSid, callId: b.callId });
    expect((await client.closed).code).toBe(1008);
    expect(client.received).toEqual([]);
    // Call B's own URL sets up call B.
    const right = await connectRelay({ targetUrl: target(), signedUrl: b.url, authToken: twilio.authToken });
    open.push(right);
    right.setup({ callSid: b.callSid, callId: b.callId });
    right.prompt('Hello?');
    await right.nextReply();
  });

  it('refuses a handshake signed over an expired relay URL, and one whose call or expiry was changed', async () => {
    const a = await answered();
    const url = new URL(a.url);
    const changedCall = new URL(a.url);
    changedCall.searchParams.set('call', String(Number(a.callId) + 1000));
    const laterExpiry = new URL(a.url);
    laterExpiry.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 60));
    for (const forged of [changedCall, laterExpiry]) {
      await expect(connectRelay({ targetUrl: target(), signedUrl: forged.toString(), authToken: twilio.authToken })).rejects.toMatchObject({ status: 403 });
    }
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (relayGrantSeconds + 5) * 1000 });
    await expect(connectRelay({ targetUrl: target(), signedUrl: a.url, authToken: twilio.authToken })).rejects.toMatchObject({ status: 403 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhoneCall } from '../../src/server/db/entities/PhoneCall.js';
import { UserSettings } from '../../src/server/db/entities/UserSettings.js';
import { hashPhonePin } from '../../src/server/features/phone/phoneTrust.js';
import { phonePinLimit } from '../../src/server/features/limits/rateLimits.js';
import { phoneTexts } from '../../src/shared/texts/index.js';
import { signUp } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';
import { startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';
import type { RelayClient } from '../fakes/twilio/relay.js';
import { callIn, twilioEnv } from '../helpers/phone.js';

// The phone PIN's lockout: the budget of wrong PINs an account may receive in an hour,
// over every call, is spent BEFORE a PIN is compared; once it is spent no PIN is compared at all,
// the right one included, and calls in parallel cannot each get a comparison. What a caller hears
// does not tell whether a number is verified or has a PIN.
const publicUrl = 'https://coach.example.com';

describe('phone PIN lockout', { timeout: 180_000 }, () => {
  let twilio: FakeTwilio;
  let model: FakeOpenAI;
  let server: TestServer;
  const open: RelayClient[] = [];

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    model = await startFakeOpenAI();
    server = await startTestServer({
      DEMO_MODE: 'false',
      OPENAI_API_KEY: 'sk-test-key-123456',
      OPENAI_BASE_URL: model.url,
      ...twilioEnv(twilio, publicUrl),
    });
  }, 180_000);
  afterAll(async () => {
    for (const client of open) client.close();
    await server?.stop();
    await twilio?.close();
    await model?.close();
  });

  /** An unattested incoming call from `from`, connected over the relay as Twilio would. */
  async function call(from: string) {
    const answered = await callIn({ appUrl: server.url, publicUrl, authToken: twilio.authToken, from });
    open.push(answered.client);
    return answered;
  }

  async function keyIn(client: RelayClient, pin: string) {
    for (const digit of pin) client.send({ type: 'dtmf', digit });
    return (await client.nextReply()).text;
  }

  async function userWithPhone(username: string, phone: string, options: { verified: boolean; pin?: string }) {
    const account = await signUp(server.url, username, `${username.slice(4, 5).toUpperCase()}${username.slice(5)} Caller`);
    const em = server.deps.orm.em.fork();
    const settings = (await em.findOne(UserSettings, { user: account.user.id })) ?? em.create(UserSettings, { user: account.user.id });
    settings.phone = phone;
    settings.phoneVerifiedAt = options.verified ? new Date() : null;
    settings.phonePinHash = options.pin ? await hashPhonePin(options.pin) : null;
    await em.flush();
    return account;
  }

  const ownerOf = async (callSid: string) => (await server.deps.orm.em.fork().findOneOrFail(PhoneCall, { callSid })).owner?.id ?? null;

  it('once the wrong PINs of the hour are spent, refuses the right PIN too, without comparing it', async () => {
    const account = await userWithPhone('pin-ivy', '+15553330001', { verified: true, pin: '8642' });
    // Ten wrong PINs over four calls (three a call at most).
    let wrong = 0;
    while (wrong < phonePinLimit.tries) {
      const { client } = await call('+15553330001');
      for (let i = 0; i < 3 && wrong < phonePinLimit.tries; i++) {
        const answer = await keyIn(client, String(1000 + wrong));
        wrong += 1;
        expect([phoneTexts.pinWrong, phoneTexts.pinLocked]).toContain(answer);
      }
      client.close();
    }
    // A new call with the right PIN: refused, and the call stays anonymous.
    const { client, callSid } = await call('+15553330001');
    expect(await keyIn(client, '8642')).toBe(phoneTexts.pinLocked);
    expect(await ownerOf(callSid)).toBeNull();
    expect(account.user.id).toBeGreaterThan(0);
  });

  it('gives calls in parallel no comparison past the budget: the right PIN keyed in at once on many calls is refused', async () => {
    await userWithPhone('pin-jay', '+15553330002', { verified: true, pin: '1357' });
    // The budget spent by calls in parallel, one wrong PIN each.
    const first = await Promise.all(Array.from({ length: phonePinLimit.tries }, () => call('+15553330002')));
    const answers = await Promise.all(first.map(({ client }, i) => keyIn(client, String(2000 + i))));
    expect(answers.every((a) => a === phoneTexts.pinWrong)).toBe(true);
    // Now many calls at once, each keying in the right PIN: none is compared, none is let in.
    const more = await Promise.all(Array.from({ length: 5 }, () => call('+15553330002')));
    const refused = await Promise.all(more.map(({ client }) => keyIn(client, '1357')));
    expect(refused).toEqual(Array(5).fill(phoneTexts.pinLocked));
    for (const { callSid } of more) expect(await ownerOf(callSid)).toBeNull();
  });

  it('takes the right PIN while the budget lasts, and gives its point back', async () => {
    const account = await userWithPhone('pin-kim', '+15553330003', { verified: true, pin: '9753' });
    for (let round = 0; round < phonePinLimit.tries + 2; round++) {
      const { client, callSid } = await call('+15553330003');
      expect(await keyIn(client, '9753')).toBe(phoneTexts.pinAccepted('Kim'));
      expect(await ownerOf(callSid)).toBe(account.user.id);
      client.close();
    }
  });

  it('greets a verified number with a PIN, a verified number without one and an unknown number alike, and answers their digits alike', async () => {
    await userWithPhone('pin-lee', '+15553330004', { verified: true, pin: '2468' });
    await userWithPhone('pin-max', '+15553330005', { verified: true });
    const withPin = await call('+15553330004');
    const withoutPin = await call('+15553330005');
    const unknown = await call('+15553339999');
    expect(withoutPin.greeting).toBe(withPin.greeting);
    expect(unknown.greeting).toBe(withPin.greeting);
    for (const { client } of [withPin, withoutPin, unknown]) {
      expect(await keyIn(client, '0000')).toBe(phoneTexts.pinWrong);
      expect(await keyIn(client, '0001')).toBe(phoneTexts.pinWrong);
      expect(await keyIn(client, '0002')).toBe(phoneTexts.pinLocked);
    }
  });
});

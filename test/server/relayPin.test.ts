import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhoneCall } from '../../src/server/db/entities/PhoneCall.js';
import { User } from '../../src/server/db/entities/User.js';
import { UserSettings } from '../../src/server/db/entities/UserSettings.js';
import { phonePinLimit } from '../../src/server/features/limits/rateLimits.js';
import { hashPhonePin } from '../../src/server/features/phone/phoneTrust.js';
import { pinTriesPerCall, RelayPin } from '../../src/server/features/telephony/relayPin.js';
import { phoneTexts } from '../../src/shared/texts/index.js';
import { signUp } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The relay's PIN entry on its own, against the real database and rate limits: what the caller
// hears for each key, and what the call's row keeps. (conversationRelay.test.ts and
// pinLockout.test.ts key the PIN in over a relay socket, as Twilio does.)

let server: TestServer;
let calls = 0;

beforeAll(async () => {
  server = await startTestServer({ DEMO_MODE: 'false' });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** A user whose verified number has `pin`, and an anonymous call from that number (its PIN asked for). */
async function pinCall(username: string, pin: string | null) {
  const account = await signUp(server.url, username, 'Robin Caller');
  const em = server.deps.orm.em.fork();
  const settings = (await em.findOne(UserSettings, { user: account.user.id })) ?? em.create(UserSettings, { user: account.user.id });
  settings.phonePinHash = pin ? await hashPhonePin(pin) : null;
  calls += 1;
  const call = em.create(PhoneCall, { callSid: `CA${String(calls).padStart(32, '0')}`, direction: 'inbound', pinUser: account.user.id });
  await em.flush();
  const entry = new RelayPin(server.deps, async (fork) => {
    const row = await fork.findOneOrFail(PhoneCall, call.id);
    return { call: row, owner: row.owner ? await fork.findOne(User, row.owner.id) : null };
  });
  const row = () => server.deps.orm.em.fork().findOneOrFail(PhoneCall, call.id);
  return { entry, row, userId: account.user.id };
}

async function keyIn(entry: RelayPin, keys: string): Promise<Array<string | null>> {
  const answers: Array<string | null> = [];
  for (const key of keys) answers.push(await entry.keyIn(key));
  return answers;
}

describe('relay PIN entry', { timeout: 60_000 }, () => {
  it('answers nothing until four digits are in, and a key that is not a digit starts the PIN again', async () => {
    const { entry, row } = await pinCall('relaypin_wait', '2468');
    expect(await keyIn(entry, '246')).toEqual([null, null, null]);
    expect(await entry.keyIn('*')).toBeNull();
    // '8' after the '*' is the first digit of a new try, not the fourth of '246'.
    expect(await keyIn(entry, '8')).toEqual([null]);
    expect((await row()).owner).toBeNull();
  });

  it('takes the right PIN: the call becomes the account’s, and later keys answer nothing', async () => {
    const { entry, row, userId } = await pinCall('relaypin_right', '1357');
    expect(await keyIn(entry, '1357')).toEqual([null, null, null, phoneTexts.pinAccepted('Robin')]);
    const call = await row();
    expect(call.owner?.id).toBe(userId);
    expect(call.pinUser).toBeNull();
    expect(await keyIn(entry, '1357')).toEqual([null, null, null, null]);
  });

  it(`says a wrong PIN is wrong, locks after ${pinTriesPerCall} on a call, then asks for none`, async () => {
    const { entry, row } = await pinCall('relaypin_wrong', '9753');
    expect((await keyIn(entry, '1111')).at(-1)).toBe(phoneTexts.pinWrong);
    expect((await keyIn(entry, '2222')).at(-1)).toBe(phoneTexts.pinWrong);
    expect((await keyIn(entry, '3333')).at(-1)).toBe(phoneTexts.pinLocked);
    const call = await row();
    expect(call.pinAttempts).toBe(pinTriesPerCall);
    expect(call.pinUser).toBeNull();
    expect(call.owner).toBeNull();
    // Even the right PIN is no longer asked for.
    expect(await keyIn(entry, '9753')).toEqual([null, null, null, null]);
  });

  it('answers a number without a PIN as a wrong PIN', async () => {
    const { entry, row } = await pinCall('relaypin_none', null);
    expect((await keyIn(entry, '0000')).at(-1)).toBe(phoneTexts.pinWrong);
    expect((await row()).owner).toBeNull();
  });

  it('refuses the right PIN once the account’s budget of wrong PINs is spent, without comparing it', async () => {
    const { entry, row, userId } = await pinCall('relaypin_budget', '8642');
    for (let i = 0; i < phonePinLimit.tries; i++) await server.deps.rateLimits.phonePin.consume(`user:${userId}`);
    expect((await keyIn(entry, '8642')).at(-1)).toBe(phoneTexts.pinLocked);
    expect((await row()).owner).toBeNull();
  });
});

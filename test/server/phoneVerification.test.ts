import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PhoneVerification } from '../../src/server/db/entities/PhoneVerification.js';
import { UserSettings } from '../../src/server/db/entities/UserSettings.js';
import { phonePinMatches, userIdOfVerifiedPhone } from '../../src/server/features/phone/phoneTrust.js';
import { apiKeyTexts, phoneTexts, phoneVerificationTexts, settingsTexts } from '../../src/shared/texts/index.js';
import { startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';
import { lastCodeSentTo, verifyPhone, twilioEnv } from '../helpers/phone.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// A profile phone is verified by an SMS code before the coach calls it or trusts
// it; the phone PIN is set in Settings.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let twilio: FakeTwilio;
let server: TestServer;
let unconfigured: TestServer;
let nextAddress = 1;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  const base = { DEMO_MODE: 'false', TRUST_PROXY: '1', RATE_LIMIT_REGISTER_PER_HOUR: '0' };
  [server, unconfigured] = await Promise.all([
    startTestServer({
      ...base,
      ...twilioEnv(twilio),
      TWILIO_ALLOWED_COUNTRY_PREFIXES: '+1,+44',
    }),
    startTestServer(base),
  ]);
});
afterAll(async () => {
  await server?.stop();
  await unconfigured?.stop();
  await twilio?.close();
});
beforeEach(() => {
  twilio.messages.length = 0;
  twilio.calls.length = 0;
});

/** A registered user on a client address of their own (the per-address text budget is tested on its own). */
async function member(name: string, target = server, address = `10.0.0.${nextAddress++}`) {
  const http = new HttpClient(target.url, { headers: { 'x-forwarded-for': address } });
  const res = await http.post('/api/auth/register', { username: `${name}-${Date.now()}`, password: 'secret123', fullName: 'Pat Phone' });
  expect(res.status).toBe(201);
  return { http, id: res.json.user.id as number };
}

const settingsOf = (userId: number) => server.deps.orm.em.fork().findOne(UserSettings, { user: userId });

describe('phone verification', () => {
  it('texts a 6-digit code from TWILIO_PHONE_NUMBER, and the code verifies the number as the profile phone', async () => {
    const { http, id } = await member('verifier');
    expect((await http.get('/trpc/profile.get')).json.result.data.phoneTrust).toEqual({ verified: false, pinSet: false });

    const sent = await http.post('/api/phone/verification', { phoneNumber: '+1 (555) 200-0001' });
    expect(sent.status).toBe(200);
    expect(sent.json).toEqual({ success: true, phoneNumber: '+15552000001', expiresInSeconds: 600 });
    expect(twilio.messages).toEqual([expect.objectContaining({ to: '+15552000001', from: '+15550001111', sid: expect.stringMatching(/^SM[0-9a-f]{32}$/) })]);
    const code = lastCodeSentTo(twilio, '+15552000001');
    expect(sent.text).not.toContain(code);
    expect(await userIdOfVerifiedPhone(server.deps.orm.em.fork(), '+15552000001')).toBeNull();

    const confirmed = await http.post('/api/phone/verification/confirm', { code });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toEqual({ success: true, phoneNumber: '+15552000001', verified: true });
    const profile = (await http.get('/trpc/profile.get')).json.result.data;
    expect(profile.profile.phone).toBe('+15552000001');
    expect(profile.phoneTrust.verified).toBe(true);
    expect(await userIdOfVerifiedPhone(server.deps.orm.em.fork(), '+15552000001')).toBe(id);
    // The code is spent.
    expect((await http.post('/api/phone/verification/confirm', { code })).json.message).toBe(phoneVerificationTexts.noPendingCode);
  });

  it('stores the code only as a hash', async () => {
    const { http, id } = await member('hashed');
    await http.post('/api/phone/verification', { phoneNumber: '+15552000002' });
    const code = lastCodeSentTo(twilio, '+15552000002');
    const rows = await server.deps.orm.em.fork().getConnection().execute('select * from phone_verification where user_id = ?', [id]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(rows[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('starts a profile phone unverified, and a changed number loses its verification', async () => {
    const { http, id } = await member('changer');
    expect((await http.post('/trpc/profile.updateProfile', { fullName: 'Pat Phone', phone: '+15552000003' })).status).toBe(200);
    expect((await settingsOf(id))?.phoneVerifiedAt).toBeNull();
    await verifyPhone(http, twilio, '+15552000003');
    // Saving the profile with the same number keeps the verification ...
    expect((await http.post('/trpc/profile.updateProfile', { fullName: 'Pat Renamed', phone: '+1 555 200 0003' })).json.result.data.phoneTrust.verified).toBe(true);
    // ... a new number does not.
    const changed = await http.post('/trpc/profile.updateProfile', { fullName: 'Pat Renamed', phone: '+15552000004' });
    expect(changed.json.result.data.phoneTrust.verified).toBe(false);
    expect((await settingsOf(id))?.phoneVerifiedAt).toBeNull();
    expect(await userIdOfVerifiedPhone(server.deps.orm.em.fork(), '+15552000003')).toBeNull();
  });

  it('allows 5 tries, counted one by one even in parallel, then the code is gone', async () => {
    const { http } = await member('guesser');
    await http.post('/api/phone/verification', { phoneNumber: '+15552000005' });
    const code = lastCodeSentTo(twilio, '+15552000005');
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await http.post('/api/phone/verification/confirm', { code: wrong });
    expect(first.status).toBe(400);
    expect(first.json.message).toBe(phoneVerificationTexts.wrongCode(4));
    const parallel = await Promise.all(Array.from({ length: 8 }, () => http.post('/api/phone/verification/confirm', { code: wrong })));
    expect(parallel.every((r) => r.status === 400)).toBe(true);
    expect(parallel.filter((r) => r.json.message === phoneVerificationTexts.wrongCode(0))).toHaveLength(1);
    const late = await http.post('/api/phone/verification/confirm', { code });
    expect(late.status).toBe(400);
    expect(late.json.message).toBe(phoneVerificationTexts.noPendingCode);
  });

  it('refuses an expired code, and a new code replaces the old', async () => {
    const { http, id } = await member('expiring');
    await http.post('/api/phone/verification', { phoneNumber: '+15552000006' });
    const first = lastCodeSentTo(twilio, '+15552000006');
    await server.deps.orm.em.fork().nativeUpdate(PhoneVerification, { user: id }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await http.post('/api/phone/verification/confirm', { code: first })).json.message).toBe(phoneVerificationTexts.codeExpired);

    await http.post('/api/phone/verification', { phoneNumber: '+15552000006' });
    const second = lastCodeSentTo(twilio, '+15552000006');
    await http.post('/api/phone/verification', { phoneNumber: '+15552000006' });
    const third = lastCodeSentTo(twilio, '+15552000006');
    if (second !== third) expect((await http.post('/api/phone/verification/confirm', { code: second })).status).toBe(400);
    expect((await http.post('/api/phone/verification/confirm', { code: third })).status).toBe(200);
  });

  it('validates the number and the code with messages a person understands', async () => {
    const { http } = await member('validator');
    for (const phoneNumber of ['12345', '', 'abc', '+0123456']) {
      const res = await http.post('/api/phone/verification', { phoneNumber });
      expect(res.status, phoneNumber).toBe(400);
      expect(res.json.message).toBe(settingsTexts.invalidPhone);
    }
    const abroad = await http.post('/api/phone/verification', { phoneNumber: '+882123456789' });
    expect(abroad.status).toBe(400);
    expect(abroad.json.message).toBe(phoneTexts.countryNotAllowed);
    for (const code of ['12345', 'abcdef', '1234567', '']) {
      const res = await http.post('/api/phone/verification/confirm', { code });
      expect(res.status, code).toBe(400);
      expect(res.json.message).toBe(phoneVerificationTexts.codeInvalid);
    }
    expect(twilio.messages).toHaveLength(0);
  });

  it('budgets the texts per user (429 with Retry-After) and per number across accounts', async () => {
    const { http } = await member('spender');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await http.post('/api/phone/verification', { phoneNumber: `+1555201000${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = await http.post('/api/phone/verification', { phoneNumber: '+15552019999' });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.json.message).toMatch(/^Too many verification codes\. Try again in \d+ minutes?\.$/);
    expect(twilio.messages).toHaveLength(5);

    // One victim's number, many accounts: the number's own budget holds.
    twilio.messages.length = 0;
    const victim = '+15552029999';
    const results: number[] = [];
    for (let i = 0; i < 7; i++) results.push((await (await member(`bomber${i}`)).http.post('/api/phone/verification', { phoneNumber: victim })).status);
    expect(results.filter((s) => s === 200)).toHaveLength(5);
    expect(twilio.messages.filter((m) => m.to === victim)).toHaveLength(5);
  });

  it('budgets the texts per client address, an IPv6 /64 as one', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const { http } = await member(`neighbour${i}`, server, `2001:db8:77:1::${(i + 1).toString(16)}`);
      statuses.push((await http.post('/api/phone/verification', { phoneNumber: `+1555203${String(i).padStart(4, '0')}` })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('hands the number to whoever proves it last (a recycled number identifies one account)', async () => {
    const before = await member('former-owner');
    const after = await member('new-owner');
    await verifyPhone(before.http, twilio, '+15552000007');
    await verifyPhone(after.http, twilio, '+15552000007');
    expect(await userIdOfVerifiedPhone(server.deps.orm.em.fork(), '+15552000007')).toBe(after.id);
    expect((await before.http.get('/trpc/profile.get')).json.result.data.phoneTrust.verified).toBe(false);
  });

  it('is refused to API keys and without a session, and explains when texts are not configured', async () => {
    const { http } = await member('keyholder');
    const key = (await http.post('/api/api-keys', { name: 'script' })).json.key as string;
    const script = new HttpClient(server.url, { origin: false, headers: { authorization: `Bearer ${key}` } });
    const byKey = await script.post('/api/phone/verification', { phoneNumber: '+15552000008' });
    expect(byKey.status).toBe(403);
    expect(byKey.json.message).toBe(apiKeyTexts.notWithApiKey);
    expect((await script.put('/api/phone/pin', { pin: '1234' })).status).toBe(403);
    expect((await new HttpClient(server.url).post('/api/phone/verification', { phoneNumber: '+15552000008' })).status).toBe(401);
    expect(twilio.messages).toHaveLength(0);

    const lonely = await member('lonely', unconfigured);
    const res = await lonely.http.post('/api/phone/verification', { phoneNumber: '+15552000008' });
    expect(res.status).toBe(412);
    expect(res.json.message).toBe(phoneVerificationTexts.smsNotConfigured);
  });
});

describe('outbound calls go only to the verified number', () => {
  it('answers 403 saying to verify, for an unverified or another number', async () => {
    const { http } = await member('caller');
    const unverified = await http.post('/api/twilio/voice/call', { phoneNumber: '+15552000009' });
    expect(unverified.status).toBe(403);
    expect(unverified.json.message).toBe(phoneVerificationTexts.mustVerify);
    await verifyPhone(http, twilio, '+15552000009');
    const other = await http.post('/api/twilio/voice/call', { phoneNumber: '+15552000010' });
    expect(other.status).toBe(403);
    expect(other.json.message).toBe(phoneVerificationTexts.mustVerify);
    expect(twilio.calls).toHaveLength(0);
    expect((await http.post('/api/twilio/voice/call', { phoneNumber: '+1 555 200 0009' })).status).toBe(200);
    expect(twilio.calls.map((c) => c.to)).toEqual(['+15552000009']);
  });
});

describe('phone PIN', () => {
  it('is set, changed and removed, stored only as a hash', async () => {
    const { http, id } = await member('pinner');
    for (const pin of ['123', '12345', 'abcd', '', '12 4']) {
      const res = await http.put('/api/phone/pin', { pin });
      expect(res.status, pin).toBe(400);
      expect(res.json.message).toBe(phoneVerificationTexts.pinInvalid);
    }
    expect((await http.put('/api/phone/pin', { pin: '4821' })).json).toEqual({ success: true, pinSet: true });
    const stored = (await settingsOf(id))?.phonePinHash;
    expect(stored).toBeTruthy();
    expect(stored).not.toContain('4821');
    expect(await phonePinMatches('4821', stored)).toBe(true);
    expect((await http.get('/trpc/profile.get')).json.result.data.phoneTrust.pinSet).toBe(true);

    await http.put('/api/phone/pin', { pin: '9034' });
    const changed = (await settingsOf(id))?.phonePinHash;
    expect(await phonePinMatches('4821', changed)).toBe(false);
    expect(await phonePinMatches('9034', changed)).toBe(true);

    expect((await http.delete('/api/phone/pin')).json).toEqual({ success: true, pinSet: false });
    expect((await settingsOf(id))?.phonePinHash).toBeNull();
    expect((await http.get('/trpc/profile.get')).json.result.data.phoneTrust.pinSet).toBe(false);
  });
});

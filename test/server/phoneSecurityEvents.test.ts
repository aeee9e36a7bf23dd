import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/clients.js';
import { verifyPhone, twilioEnv } from '../helpers/phone.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startFakeTwilio, type FakeTwilio } from '../fakes/twilio/index.js';

// Phone verification and PIN changes are recorded in the account's security activity,
// with the address and browser of the request, as the other security events.
describe('phone security events', { timeout: 120_000 }, () => {
  let twilio: FakeTwilio;
  let server: TestServer;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    server = await startTestServer({
      DEMO_MODE: 'false',
      ...twilioEnv(twilio),
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await twilio?.close();
  });

  it('records a verified number, a PIN set and a PIN removed, newest first', async () => {
    const { http } = await signUp(server.url, 'phone-events');
    await verifyPhone(http, twilio, '+15556667777');
    expect((await http.put('/api/phone/pin', { pin: '2580' })).status).toBe(200);
    expect((await http.delete('/api/phone/pin')).status).toBe(200);
    const res = await http.get('/api/security-events', { 'user-agent': 'PhoneEventsTest/1.0' });
    expect(res.status).toBe(200);
    const kinds = (res.json.events as Array<{ kind: string; address: string | null }>).map((e) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['phone_pin_removed', 'phone_pin_set', 'phone_verified']);
    expect(res.json.events[0].address).toBe('127.0.0.1');
  });
});

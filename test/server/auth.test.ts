import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTexts, commonTexts } from '../../src/shared/texts/index.js';
import { User } from '../../src/server/db/entities/User.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The auth paths of the product spec's REST calls against the real app: one server in demo mode (with an
// access key), one with demo mode off (and no access key).
const accessKey = 'test-access-key-0123456789';
let demo: TestServer;
let noDemo: TestServer;

beforeAll(async () => {
  [demo, noDemo] = await Promise.all([
    startTestServer({ DEMO_MODE: 'true', ACCESS_KEY: accessKey }),
    startTestServer({ DEMO_MODE: 'false' }),
  ]);
});

afterAll(async () => {
  await Promise.all([demo?.stop(), noDemo?.stop()]);
});

let counter = 0;
function uniqueName(prefix = 'user') {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

function registration(overrides: Record<string, unknown> = {}) {
  return {
    username: uniqueName(),
    password: 'correct horse',
    fullName: 'Jane Doe',
    jobTitle: 'Engineering Manager',
    company: 'Acme',
    ...overrides,
  };
}

async function registeredClient(server: TestServer, overrides: Record<string, unknown> = {}) {
  const client = new HttpClient(server.url);
  const body = registration(overrides);
  const res = await client.post('/api/auth/register', body);
  expect(res.status).toBe(201);
  return { client, body, user: res.json.user };
}

describe('register', () => {
  it('creates the user, signs them in and answers with the public user', async () => {
    const client = new HttpClient(noDemo.url);
    const body = registration();

    const res = await client.post('/api/auth/register', body);

    expect(res.status).toBe(201);
    expect(res.json.user).toEqual({
      id: expect.any(Number),
      username: body.username,
      fullName: 'Jane Doe',
      jobTitle: 'Engineering Manager',
      company: 'Acme',
    });
    expect(res.text).not.toContain(body.password);
    const cookie = res.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const session = await client.get('/api/auth/session');
    expect(session.json.user).toMatchObject({ id: res.json.user.id, username: body.username });
  });

  it('stores empty optional fields as null', async () => {
    const client = new HttpClient(noDemo.url);

    const res = await client.post('/api/auth/register', registration({ jobTitle: '', company: undefined }));

    expect(res.status).toBe(201);
    expect(res.json.user).toMatchObject({ jobTitle: null, company: null });
  });

  it.each([
    ['a short username', { username: 'ab' }, 'username', authTexts.usernameMin],
    ['a missing username', { username: undefined }, 'username', authTexts.usernameMin],
    ['a short password', { password: '12345' }, 'password', authTexts.passwordMin],
    ['a missing password', { password: undefined }, 'password', authTexts.passwordMin],
    ['a one-letter full name', { fullName: 'J' }, 'fullName', authTexts.fullNameRequired],
    ['a blank full name', { fullName: '   ' }, 'fullName', authTexts.fullNameRequired],
    ['a missing full name', { fullName: undefined }, 'fullName', authTexts.fullNameRequired],
  ])('refuses %s with 400 and the spec message', async (_case, overrides, field, message) => {
    const client = new HttpClient(noDemo.url);

    const res = await client.post('/api/auth/register', registration(overrides));

    expect(res.status).toBe(400);
    expect(res.json.message).toBe(message);
    expect(res.json.fieldErrors[field]).toContain(message);
  });

  it('refuses a username that differs only in case with 409', async () => {
    const { body } = await registeredClient(noDemo);
    const client = new HttpClient(noDemo.url);

    const res = await client.post('/api/auth/register', registration({ username: body.username.toUpperCase() }));

    expect(res.status).toBe(409);
    expect(res.json.message).toBe(authTexts.usernameTaken);
  });

  it('does not store the password in plain text', async () => {
    const { body, user } = await registeredClient(noDemo, { password: 'plain-text-canary-42' });

    const stored = await noDemo.deps.orm.em.fork().findOneOrFail(User, user.id);
    const rows = await noDemo.deps.orm.em
      .fork()
      .getConnection()
      .execute('select * from app_user where id = ?', [user.id]);

    expect(stored.passwordHash).toBeTruthy();
    expect(stored.passwordHash).not.toContain(body.password);
    expect(stored.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(rows)).not.toContain(body.password);
  });
});

describe('login', () => {
  it('signs in with the right password, whatever the username case', async () => {
    const { body, user } = await registeredClient(noDemo);
    const client = new HttpClient(noDemo.url);

    const res = await client.post('/api/auth/login', { username: body.username.toUpperCase(), password: body.password });

    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({ id: user.id, fullName: 'Jane Doe' });
    expect((await client.get('/api/auth/session')).json.user).toMatchObject({ id: user.id });
  });

  it('refuses a wrong password with 401', async () => {
    const { body } = await registeredClient(noDemo);
    const client = new HttpClient(noDemo.url);

    const res = await client.post('/api/auth/login', { username: body.username, password: 'wrong-password' });

    expect(res.status).toBe(401);
    expect(res.json.message).toBe(authTexts.invalidCredentials);
    expect((await client.get('/api/auth/session')).json.user).toBeNull();
  });

  it('refuses an unknown username with the same 401', async () => {
    const res = await new HttpClient(noDemo.url).post('/api/auth/login', { username: uniqueName('ghost'), password: 'whatever1' });

    expect(res.status).toBe(401);
    expect(res.json.message).toBe(authTexts.invalidCredentials);
  });

  it.each([
    ['a short username', { username: 'ab', password: 'secret1' }, authTexts.usernameMin],
    ['a short password', { username: 'someone', password: '12345' }, authTexts.passwordMin],
  ])('refuses %s with 400 and the spec message', async (_case, body, message) => {
    const res = await new HttpClient(noDemo.url).post('/api/auth/login', body);

    expect(res.status).toBe(400);
    expect(res.json.message).toBe(message);
  });

  it('answers 429 after repeated failures for one username, even with the right password', async () => {
    const { body } = await registeredClient(demo);
    const client = new HttpClient(demo.url);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const res = await client.post('/api/auth/login', { username: body.username, password: `wrong-${attempt}` });
      expect(res.status).toBe(401);
    }

    const blocked = await client.post('/api/auth/login', { username: body.username, password: body.password });

    expect(blocked.status).toBe(429);
    expect(blocked.json.message).toMatch(/^Too many failed login attempts\. Please wait \d+ minutes? and try again\.$/);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('signs the demo credentials into a fresh private guest space while demo mode is on', async () => {
    const client = new HttpClient(demo.url);

    const res = await client.post('/api/auth/login', authTexts.demoCredentials);

    expect(res.status).toBe(200);
    // The demo profile (SPEC's fallback user), in an account of the visitor's own: never the shared one.
    expect(res.json.user).toMatchObject({ fullName: 'Alex Morgan', username: expect.stringMatching(/^guest-/) });
    expect(res.json.user.id).not.toBe(1);
  });

  it('refuses the demo account when demo mode is off', async () => {
    const res = await new HttpClient(noDemo.url).post('/api/auth/login', authTexts.demoCredentials);

    expect(res.status).toBe(401);
    expect(res.json.message).toBe(authTexts.invalidCredentials);
  });
});

describe('session and logout', () => {
  it('returns the demo user (id 1) to an anonymous visitor in demo mode', async () => {
    const res = await new HttpClient(demo.url).get('/api/auth/session');

    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({ id: 1, username: 'demo', fullName: expect.any(String) });
  });

  it('returns no user to an anonymous visitor when demo mode is off', async () => {
    const res = await new HttpClient(noDemo.url).get('/api/auth/session');

    expect(res.status).toBe(200);
    expect(res.json).toEqual({ user: null });
  });

  it('returns the signed-in user rather than the demo user in demo mode', async () => {
    const { client, user } = await registeredClient(demo);

    const res = await client.get('/api/auth/session');

    expect(res.json.user).toMatchObject({ id: user.id });
    expect(user.id).not.toBe(1);
  });

  it('logout ends the session', async () => {
    const { client } = await registeredClient(noDemo);

    const res = await client.post('/api/auth/logout');

    expect(res.status).toBe(200);
    expect((await client.get('/api/auth/session')).json).toEqual({ user: null });
  });

  it('logout in demo mode falls back to the demo user', async () => {
    const { client } = await registeredClient(demo);

    await client.post('/api/auth/logout');

    expect((await client.get('/api/auth/session')).json.user).toMatchObject({ id: 1 });
  });

  it('reports demo mode and the sign-in state over tRPC', async () => {
    const anonymous = await new HttpClient(noDemo.url).get('/trpc/auth.session');
    const { client } = await registeredClient(noDemo);
    const signedIn = await client.get('/trpc/auth.session');

    expect(anonymous.json.result.data).toEqual({ user: null, demoMode: false, signedIn: false, guest: false, microsoftSignIn: false, passwordLogin: true, orgAdmin: false });
    expect(signedIn.json.result.data).toMatchObject({ demoMode: false, signedIn: true, guest: false });
  });

  it('tells a demo visitor and their guest space apart from an account', async () => {
    const visitor = new HttpClient(demo.url);
    expect((await visitor.get('/trpc/auth.session')).json.result.data).toMatchObject({ demoMode: true, signedIn: false, guest: true });
    expect((await visitor.post('/api/chats', {})).status).toBe(201);
    expect((await visitor.get('/trpc/auth.session')).json.result.data).toMatchObject({ demoMode: true, signedIn: true, guest: true });
  });
});

describe('access key', () => {
  it('grants access with the right key', async () => {
    const res = await new HttpClient(demo.url).get('/api/auth/check-access', { 'x-access-key': accessKey });

    expect(res.status).toBe(200);
  });

  it.each([
    ['a wrong key', { 'x-access-key': 'not-the-key' }],
    ['no key', {}],
  ])('refuses %s with 401', async (_case, headers) => {
    const res = await new HttpClient(demo.url).get('/api/auth/check-access', headers);

    expect(res.status).toBe(401);
    expect(res.json.message).toBe(authTexts.invalidAccessKey);
  });

  it('answers 403 when no access key is configured', async () => {
    const res = await new HttpClient(noDemo.url).get('/api/auth/check-access', { 'x-access-key': accessKey });

    expect(res.status).toBe(403);
    expect(res.json.message).toBe(authTexts.accessKeyNotEnabled);
  });
});

describe('request hygiene', () => {
  it('refuses a POST from a foreign origin that carries a cookie', async () => {
    const { client } = await registeredClient(noDemo);

    const res = await client.post('/api/auth/logout', undefined, { origin: 'https://evil.example' });

    expect(res.status).toBe(403);
    expect(res.json.message).toBe(authTexts.foreignOrigin);
    expect((await client.get('/api/auth/session')).json.user).not.toBeNull();
  });

  it('answers 400 to a malformed JSON body', async () => {
    const res = await new HttpClient(noDemo.url).post('/api/auth/login', '{"username": "jane", ');

    expect(res.status).toBe(400);
    expect(res.json.message).toBe(commonTexts.badJson);
  });

  it('answers 400 with the spec message on the tRPC endpoint, not 500', async () => {
    const res = await new HttpClient(noDemo.url).post('/trpc/auth.login', { username: 'ab', password: 'secret1' });

    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe(authTexts.usernameMin);
    expect(res.json.error.data.fieldErrors.username).toContain(authTexts.usernameMin);
  });

  it('answers 400 with the spec message to a field of the wrong type', async () => {
    const res = await new HttpClient(noDemo.url).post('/trpc/auth.login', { username: 42, password: 'secret1' });

    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe(authTexts.usernameMin);
  });
});

describe('access key guessing', () => {
  it('slows down repeated wrong access keys with 429', async () => {
    const gated = await startTestServer({ ACCESS_KEY: 'the-right-key' });
    try {
      const client = new HttpClient(gated.url);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await client.get('/api/auth/check-access', { 'x-access-key': `guess-${i}` })).status);
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses[5]).toBe(429);
      expect((await client.get('/api/auth/check-access', { 'x-access-key': 'the-right-key' })).status).toBe(429);
    } finally {
      await gated.stop();
    }
  }, 90_000); // a server start of its own
});

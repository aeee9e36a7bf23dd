import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationDefaults, privacyDefaults } from '../../src/shared/settingsConstants.js';
import { authTexts, settingsTexts } from '../../src/shared/texts/index.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The settings page's profile router over tRPC HTTP, against the real app and a fresh database.
let app: TestServer;
let demo: TestServer;

beforeAll(async () => {
  [app, demo] = await Promise.all([startTestServer({ DEMO_MODE: 'false' }), startTestServer({ DEMO_MODE: 'true' })]);
});

afterAll(async () => {
  await Promise.all([app?.stop(), demo?.stop()]);
});

let counter = 0;
async function signedInUser(server: TestServer = app, overrides: Record<string, unknown> = {}) {
  counter += 1;
  const client = new HttpClient(server.url);
  const res = await client.post('/api/auth/register', {
    username: `settings${Date.now().toString(36)}${counter}`,
    password: 'correct horse',
    fullName: 'Jane Doe',
    jobTitle: 'Engineering Manager',
    company: 'Acme',
    ...overrides,
  });
  expect(res.status).toBe(201);
  return client;
}

// tRPC over HTTP: queries are GETs, mutations POST their input as the JSON body.
async function getSettings(client: HttpClient) {
  return client.get('/trpc/profile.get');
}
async function mutate(client: HttpClient, procedure: string, input: unknown) {
  return client.post(`/trpc/profile.${procedure}`, input);
}

const validProfile = {
  fullName: 'Jane Q. Doe',
  email: 'jane@example.com',
  jobTitle: 'Director of Engineering',
  company: 'Globex',
  phone: '+15551234567',
};

describe('profile.get', () => {
  it('answers the user profile and the spec defaults before anything was saved', async () => {
    const client = await signedInUser();

    const res = await getSettings(client);

    expect(res.status).toBe(200);
    expect(res.json.result.data).toEqual({
      profile: { fullName: 'Jane Doe', email: null, jobTitle: 'Engineering Manager', company: 'Acme', phone: null },
      notifications: { emailNotifications: true, pushNotifications: false, weeklyDigest: true, coachingSuggestions: true },
      privacy: { dataRetention: '90', shareAnonymousData: false, storeChatHistory: true },
      phoneTrust: { verified: false, pinSet: false },
    });
    expect(res.json.result.data.notifications).toEqual(notificationDefaults);
    expect(res.json.result.data.privacy).toEqual(privacyDefaults);
  });

  it('refuses an anonymous caller when demo mode is off', async () => {
    const res = await getSettings(new HttpClient(app.url));

    expect(res.status).toBe(401);
    expect(res.json.error.message).toBe(authTexts.notAuthenticated);
  });

  it("answers the demo user's settings to an anonymous caller in demo mode", async () => {
    const res = await getSettings(new HttpClient(demo.url));

    expect(res.status).toBe(200);
    expect(res.json.result.data.profile).toMatchObject({ fullName: 'Alex Morgan', jobTitle: 'Engineering Manager' });
  });
});

describe('profile.updateProfile', () => {
  it('saves the profile, updates the user and keeps it for the next read', async () => {
    const client = await signedInUser();

    const res = await mutate(client, 'updateProfile', validProfile);

    expect(res.status).toBe(200);
    expect(res.json.result.data.profile).toEqual(validProfile);
    expect((await getSettings(client)).json.result.data.profile).toEqual(validProfile);
    const session = await client.get('/api/auth/session');
    expect(session.json.user).toMatchObject({ fullName: 'Jane Q. Doe', jobTitle: 'Director of Engineering', company: 'Globex' });
  });

  it('trims text, stores empty optional fields as null and normalises the phone number', async () => {
    const client = await signedInUser();

    const res = await mutate(client, 'updateProfile', {
      fullName: '  Jane Doe  ',
      email: '',
      jobTitle: '',
      company: '   ',
      phone: '+1 (555) 123-4567',
    });

    expect(res.status).toBe(200);
    expect(res.json.result.data.profile).toEqual({
      fullName: 'Jane Doe',
      email: null,
      jobTitle: null,
      company: null,
      phone: '+15551234567',
    });
  });

  it('leaves the notification and privacy choices alone', async () => {
    const client = await signedInUser();
    await mutate(client, 'updatePrivacy', { dataRetention: '365', shareAnonymousData: true, storeChatHistory: false });

    const res = await mutate(client, 'updateProfile', validProfile);

    expect(res.json.result.data.privacy).toEqual({ dataRetention: '365', shareAnonymousData: true, storeChatHistory: false });
    expect(res.json.result.data.notifications).toEqual(notificationDefaults);
  });

  it.each([
    ['fullName', { fullName: 'J' }, settingsTexts.fullNameRequired],
    ['fullName', { fullName: undefined }, settingsTexts.fullNameRequired],
    ['email', { email: 'not-an-email' }, settingsTexts.invalidEmail],
    ['phone', { phone: '5551234567' }, settingsTexts.invalidPhone],
    ['phone', { phone: '+1 555 CALL NOW' }, settingsTexts.invalidPhone],
    ['company', { company: 'x'.repeat(101) }, settingsTexts.tooLong(100)],
  ])('answers 400 with the %s message for %j', async (field, overrides, message) => {
    const client = await signedInUser();

    const res = await mutate(client, 'updateProfile', { ...validProfile, ...overrides });

    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe(message);
    expect(res.json.error.data.fieldErrors[field]).toEqual([message]);
    expect((await getSettings(client)).json.result.data.profile.fullName).toBe('Jane Doe');
  });
});

describe('profile.updateNotifications', () => {
  it('saves all four choices and keeps them for the next read', async () => {
    const client = await signedInUser();
    const choices = { emailNotifications: false, pushNotifications: true, weeklyDigest: false, coachingSuggestions: false };

    const res = await mutate(client, 'updateNotifications', choices);

    expect(res.status).toBe(200);
    expect(res.json.result.data.notifications).toEqual(choices);
    expect((await getSettings(client)).json.result.data.notifications).toEqual(choices);
    expect((await getSettings(client)).json.result.data.privacy).toEqual(privacyDefaults);
  });

  // Issue 49: the weekly digest is the weekly review (the nudges' weeklyReview.enabled), one setting.
  it('weeklyDigest is the weekly review: each name turns the other off and on, and a save without it keeps it', async () => {
    const client = await signedInUser();
    const nudges = async () => (await client.get('/api/nudges/settings')).json as { weeklyReview: { enabled: boolean; day: string }; nextRun: unknown };
    expect(await nudges()).toMatchObject({ weeklyReview: { enabled: true }, nextRun: expect.any(Object) });

    await mutate(client, 'updateNotifications', { emailNotifications: true, pushNotifications: false, weeklyDigest: false, coachingSuggestions: true });
    expect(await nudges()).toMatchObject({ weeklyReview: { enabled: false, day: 'mon' }, nextRun: null });

    const current = await client.get('/api/nudges/settings');
    const { timeZone: _zone, nextRun: _next, ...settings } = current.json;
    expect((await client.put('/api/nudges/settings', { ...settings, weeklyReview: { ...settings.weeklyReview, enabled: true, day: 'fri' } })).status).toBe(200);
    expect((await getSettings(client)).json.result.data.notifications.weeklyDigest).toBe(true);

    // The settings form leaves it out: the weekly review stays as the nudges section set it.
    const res = await mutate(client, 'updateNotifications', { emailNotifications: false, pushNotifications: false, coachingSuggestions: true });
    expect(res.status).toBe(200);
    expect(res.json.result.data.notifications).toEqual({ emailNotifications: false, pushNotifications: false, weeklyDigest: true, coachingSuggestions: true });
    expect(await nudges()).toMatchObject({ weeklyReview: { enabled: true, day: 'fri' }, nextRun: expect.any(Object) });
  });

  it('answers 400 when a choice is missing', async () => {
    const client = await signedInUser();

    const res = await mutate(client, 'updateNotifications', { emailNotifications: false });

    expect(res.status).toBe(400);
    expect(res.json.error.data.fieldErrors.pushNotifications).toBeDefined();
  });
});

describe('profile.updatePrivacy', () => {
  it('saves the privacy settings and keeps them for the next read', async () => {
    const client = await signedInUser();
    const choices = { dataRetention: 'forever', shareAnonymousData: true, storeChatHistory: false };

    const res = await mutate(client, 'updatePrivacy', choices);

    expect(res.status).toBe(200);
    expect(res.json.result.data.privacy).toEqual(choices);
    expect((await getSettings(client)).json.result.data.privacy).toEqual(choices);
  });

  it('answers 400 for a retention period the spec does not offer', async () => {
    const client = await signedInUser();

    const res = await mutate(client, 'updatePrivacy', { dataRetention: '60', shareAnonymousData: false, storeChatHistory: true });

    expect(res.status).toBe(400);
    expect(res.json.error.data.fieldErrors.dataRetention).toBeDefined();
  });
});

describe('isolation', () => {
  it("never lets one user's saves reach another user's settings", async () => {
    const jane = await signedInUser();
    const john = await signedInUser(app, { fullName: 'John Roe', jobTitle: '', company: '' });

    await mutate(jane, 'updateProfile', validProfile);
    await mutate(jane, 'updateNotifications', { emailNotifications: false, pushNotifications: true, weeklyDigest: false, coachingSuggestions: false });
    await mutate(jane, 'updatePrivacy', { dataRetention: '30', shareAnonymousData: true, storeChatHistory: false });

    expect((await getSettings(john)).json.result.data).toEqual({
      profile: { fullName: 'John Roe', email: null, jobTitle: null, company: null, phone: null },
      notifications: notificationDefaults,
      privacy: privacyDefaults,
      phoneTrust: { verified: false, pinSet: false },
    });
    expect((await getSettings(jane)).json.result.data.profile).toEqual(validProfile);
  });

  it('saves concurrent first updates of one user without a conflict', async () => {
    const client = await signedInUser();

    const results = await Promise.all([
      mutate(client, 'updateNotifications', { emailNotifications: false, pushNotifications: true, weeklyDigest: true, coachingSuggestions: true }),
      mutate(client, 'updatePrivacy', { dataRetention: '180', shareAnonymousData: false, storeChatHistory: true }),
    ]);

    expect(results.map((res) => res.status)).toEqual([200, 200]);
    const settings = (await getSettings(client)).json.result.data;
    expect(settings.notifications.pushNotifications).toBe(true);
    expect(settings.privacy.dataRetention).toBe('180');
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { User } from '../../src/server/db/entities/User.js';
import { microsoftSignInTexts } from '../../src/shared/texts/index.js';
import { startFakeEntra, type FakeEntra } from '../fakes/entra/index.js';
import { startFakeGraph, type FakeGraph, type FakeMailbox } from '../fakes/graph/index.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// 'Sign in with Microsoft' through the real server, against the https fakes of Entra ID
// (authorize, code redemption with PKCE and an ID token carrying the nonce) and Graph (the
// mailbox and calendar of each account). Server `open`: demo mode on (guest spaces), passwords on,
// any tenant. Server `company`: PASSWORD_LOGIN=false and MICROSOFT_ALLOWED_TENANTS.
let graph: FakeGraph;
let entra: FakeEntra;
let open: TestServer;
let company: TestServer;
const mailboxes = new Map<string, FakeMailbox>();
const allowedTenant = '11111111-2222-3333-4444-555555555555';
const otherTenant = '99999999-8888-7777-6666-555555555555';
const hour = 3_600_000;
const inHours = (hours: number) => new Date(Math.floor((Date.now() + hours * hour) / 60_000) * 60_000).toISOString();

/** Each Entra account reads its own mailbox, with a meeting named after it in its calendar. */
function mailboxOf(username: string): FakeMailbox {
  let box = mailboxes.get(username);
  if (!box) {
    box = graph.addMailbox({ tokens: [], mail: username, displayName: username });
    box.addMessages([{ subject: `Hello ${username}`, fromName: 'Priya Patel', fromAddress: 'priya@contoso.example', body: 'Hi' }]);
    box.addEvents([{ subject: `Planning with ${username}`, start: inHours(2), end: inHours(3) }]);
    mailboxes.set(username, box);
  }
  return box;
}

beforeAll(async () => {
  graph = await startFakeGraph();
  entra = await startFakeEntra({ clientId: 'test-client', onAccessToken: (token, account) => graph.grant(token, mailboxOf(account)) });
  const microsoft = { MICROSOFT_CLIENT_ID: 'test-client', MICROSOFT_AUTHORITY_HOST: entra.url, MICROSOFT_TENANT_ID: 'organizations', MICROSOFT_GRAPH_BASE_URL: graph.url };
  [open, company] = await Promise.all([
    startTestServer({ ...microsoft, DEMO_MODE: 'true', RATE_LIMIT_GUEST_PER_HOUR: '0' }),
    startTestServer({ ...microsoft, DEMO_MODE: 'false', PASSWORD_LOGIN: 'false', MICROSOFT_ALLOWED_TENANTS: ` ${allowedTenant.toUpperCase()} ` }),
  ]);
}, 120_000);
afterAll(async () => {
  await open?.stop();
  await company?.stop();
  await entra?.close();
  await graph?.close();
});
beforeEach(() => {
  entra.setAuthorizeError(null);
  entra.setIdTokenNonce(null);
});

type Steps = { start: { status: number; location: string }; authorize: URL; callback: { status: number; location: string | null } };

/**
 * A browser's round trip: /sign-in (or /link), the authority's authorize endpoint, the callback.
 * `tamper` changes the callback's query before it is sent back.
 */
async function roundTrip(http: HttpClient, options: { path?: string; tamper?: (query: URLSearchParams) => void; callbackClient?: HttpClient } = {}): Promise<Steps> {
  const start = await http.get(options.path ?? '/api/auth/microsoft/sign-in');
  expect(start.status, start.text).toBe(302);
  const authorizeUrl = start.headers.get('location')!;
  const authorize = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const back = new URL(authorize.headers.get('location')!);
  options.tamper?.(back.searchParams);
  const callback = await (options.callbackClient ?? http).get(back.pathname + back.search);
  return { start: { status: start.status, location: authorizeUrl }, authorize: back, callback: { status: callback.status, location: callback.headers.get('location') } };
}

const session = async (http: HttpClient) => (await http.get('/trpc/auth.session')).json.result.data as { user: { id: number; username: string; fullName: string } | null; signedIn: boolean; guest: boolean; microsoftSignIn: boolean; passwordLogin: boolean };
const connections = async (http: HttpClient) => (await http.get('/api/ai-coach/microsoft/connection-status')).json.connections;
const userRow = (server: TestServer, id: number) => server.deps.orm.em.fork().findOneOrFail(User, id);

describe('the way in', () => {
  it('sends the browser to the authorize endpoint: OIDC code with PKCE S256, the scopes, a state and nonce bound to this browser', async () => {
    const http = new HttpClient(open.url);
    const res = await http.get('/api/auth/microsoft/sign-in');
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get('location')!);
    expect(url.origin + url.pathname).toBe(`${entra.url}/organizations/oauth2/v2.0/authorize`);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe('test-client');
    expect(q.get('redirect_uri')).toBe(`${open.url}/api/auth/microsoft/callback`);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toMatch(/^msi\.[A-Za-z0-9_-]{32}$/);
    expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(q.get('scope')!.split(' ').sort()).toEqual(['Calendars.ReadWrite', 'Mail.ReadWrite', 'Mail.Send', 'User.Read', 'email', 'offline_access', 'openid', 'profile'].sort());
    // The flow's cookie: HttpOnly, for the callback's path only, ten minutes.
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('ms_sign_in='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/auth\/microsoft/i);
    expect(cookie).toMatch(/Max-Age=600/i);
    expect(cookie).not.toContain(q.get('nonce')!);
    // The session answers what /login offers.
    expect(await session(http)).toMatchObject({ microsoftSignIn: true, passwordLogin: true });
  });

  it('a first sign-in makes a user (name and username from the token, no password) with mail and calendar connected, lands on /app', async () => {
    const account = entra.setAccount({ username: 'riley.chen@contoso.example', name: 'Riley Chen' });
    const http = new HttpClient(open.url);
    const { callback } = await roundTrip(http);
    expect(callback).toEqual({ status: 302, location: '/app' });
    const me = await session(http);
    expect(me).toMatchObject({ signedIn: true, guest: false, user: { username: 'riley.chen@contoso.example', fullName: 'Riley Chen' } });
    const row = await userRow(open, me.user!.id);
    expect(row).toMatchObject({ passwordHash: null, entraTenantId: account.tenantId, entraObjectId: account.objectId, isGuest: false });
    expect(await connections(http)).toMatchObject({ email: { connected: true, accountEmail: 'riley.chen@contoso.example' }, calendar: { connected: true }, teams: { connected: false } });
    // The tokens are stored sealed, never as they came.
    const stored = await open.deps.orm.em.fork().getConnection().execute('select access_token_sealed, refresh_token_sealed from microsoft_connection where user_id = ?', [me.user!.id]);
    expect(stored).toHaveLength(2);
    for (const r of stored) expect(`${r.access_token_sealed} ${r.refresh_token_sealed}`).not.toMatch(/fake-(at|rt)-/);
    // The mail and the calendar are this account's.
    expect((await http.get('/api/ai-coach/microsoft/emails')).json.emails[0].subject).toBe('Hello riley.chen@contoso.example');
    const meetings = await http.get('/api/meetings');
    expect(meetings.status, meetings.text).toBe(200);
    expect(meetings.json.meetings.map((m: { subject: string }) => m.subject)).toEqual(['Planning with riley.chen@contoso.example']);
    // Like a password login: in the sessions list, and a sign_in security event.
    const sessions = (await http.get('/trpc/auth.sessions')).json.result.data.sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0].current).toBe(true);
    const events = (await http.get('/api/security-events')).json.events.map((e: { kind: string }) => e.kind);
    expect(events).toContain('sign_in');
    // No password: the username and any password do not sign in.
    expect((await new HttpClient(open.url).post('/api/auth/login', { username: 'riley.chen@contoso.example', password: 'secret123' })).status).toBe(401);
  });

  it('a second sign-in of the same Entra account signs in to the same user, found by tenant and object id', async () => {
    entra.setAccount({ username: 'sam.second@contoso.example', name: 'Sam Second' });
    const first = new HttpClient(open.url);
    expect((await roundTrip(first)).callback.location).toBe('/app');
    const firstUser = (await session(first)).user!;
    // The account's address changed in its tenant (same object id): still the same user.
    entra.setAccount({ username: 'sam.renamed@contoso.example', objectId: entra.account.objectId, tenantId: entra.account.tenantId, name: 'Sam Second' });
    const second = new HttpClient(open.url);
    expect((await roundTrip(second)).callback.location).toBe('/app');
    expect((await session(second)).user!.id).toBe(firstUser.id);
    const sessions = (await second.get('/trpc/auth.sessions')).json.result.data.sessions;
    expect(sessions).toHaveLength(2);
    // The same address in another tenant is another account: never matched by e-mail alone.
    entra.setAccount({ username: 'sam.renamed@contoso.example', tenantId: otherTenant, name: 'Sam Elsewhere' });
    const third = new HttpClient(open.url);
    expect((await roundTrip(third)).callback.location).toBe('/app');
    const other = (await session(third)).user!;
    expect(other.id).not.toBe(firstUser.id);
    expect(other.username).toBe('sam.renamed@contoso.example');
    // A password user whose username is the address is not taken over either.
    const owner = new HttpClient(open.url);
    expect((await owner.post('/api/auth/register', { username: 'pat.taken@contoso.example', password: 'secret123', fullName: 'Pat Password' })).status).toBe(201);
    entra.setAccount({ username: 'pat.taken@contoso.example', name: 'Pat Entra' });
    const fourth = new HttpClient(open.url);
    expect((await roundTrip(fourth)).callback.location).toBe('/app');
    const made = (await session(fourth)).user!;
    expect(made.id).not.toBe((await session(owner)).user!.id);
    expect(made.username).toBe('pat.taken@contoso.example-2');
  });
});

describe('refused sign-ins start no session', () => {
  async function expectNoSession(http: HttpClient, server: TestServer, before: number) {
    const me = await session(http);
    expect(me.signedIn).toBe(false);
    const [{ n }] = await server.deps.orm.em.fork().getConnection().execute('select count(*)::int as n from auth_session');
    expect(n).toBe(before);
  }
  const sessionCount = async (server: TestServer) => (await server.deps.orm.em.fork().getConnection().execute('select count(*)::int as n from auth_session'))[0].n as number;

  it('a tampered state, a state from another browser, or no flow cookie', async () => {
    entra.setAccount({ username: 'tamper.test@contoso.example' });
    const before = await sessionCount(open);
    const http = new HttpClient(open.url);
    const tampered = await roundTrip(http, { tamper: (q) => q.set('state', `${q.get('state')!.slice(0, -2)}xx`) });
    expect(tampered.callback).toEqual({ status: 302, location: '/login?microsoft_error=state' });
    await expectNoSession(http, open, before);
    // The whole callback carried to another browser (a forged login link): no cookie there.
    const victim = new HttpClient(open.url);
    const forwarded = await roundTrip(http, { callbackClient: victim });
    expect(forwarded.callback.location).toBe('/login?microsoft_error=state');
    await expectNoSession(victim, open, before);
    // The cookie is one use: the same callback again signs nobody in.
    const once = new HttpClient(open.url);
    const steps = await roundTrip(once, { tamper: (q) => q.set('state', 'msi.forged') });
    expect(steps.callback.location).toBe('/login?microsoft_error=state');
    await expectNoSession(once, open, before);
    expect(await userCount(open, 'tamper.test@contoso.example')).toBe(0);
  });

  it('an error from the authority (declined) and a code it refuses', async () => {
    entra.setAccount({ username: 'refused.code@contoso.example' });
    const before = await sessionCount(open);
    entra.setAuthorizeError({ error: 'access_denied', description: 'The user declined to consent' });
    const declined = new HttpClient(open.url);
    expect((await roundTrip(declined)).callback.location).toBe('/login?microsoft_error=declined');
    await expectNoSession(declined, open, before);
    entra.setAuthorizeError({ error: 'server_error', description: 'Something went wrong' });
    expect((await roundTrip(new HttpClient(open.url))).callback.location).toBe('/login?microsoft_error=failed');
    entra.setAuthorizeError(null);
    const refused = new HttpClient(open.url);
    expect((await roundTrip(refused, { tamper: (q) => q.set('code', 'fake-code-not-issued') })).callback.location).toBe('/login?microsoft_error=failed');
    await expectNoSession(refused, open, before);
    expect(await userCount(open, 'refused.code@contoso.example')).toBe(0);
  });

  it('an ID token whose nonce is not this browser’s', async () => {
    entra.setAccount({ username: 'nonce.test@contoso.example' });
    const before = await sessionCount(open);
    entra.setIdTokenNonce('someone-elses-nonce');
    const http = new HttpClient(open.url);
    expect((await roundTrip(http)).callback.location).toBe('/login?microsoft_error=failed');
    await expectNoSession(http, open, before);
    expect(await userCount(open, 'nonce.test@contoso.example')).toBe(0);
  });

  it('an account of a tenant not on MICROSOFT_ALLOWED_TENANTS', async () => {
    entra.setAccount({ username: 'outsider@fabrikam.example', tenantId: otherTenant });
    const before = await sessionCount(company);
    const http = new HttpClient(company.url);
    expect((await roundTrip(http)).callback.location).toBe('/login?microsoft_error=tenant');
    expect(microsoftSignInTexts.errors.tenant).toBe('Your organisation has not enabled AI Coach');
    await expectNoSession(http, company, before);
    expect(await userCount(company, 'outsider@fabrikam.example')).toBe(0);
    // The allowed tenant signs in.
    entra.setAccount({ username: 'insider@contoso.example', tenantId: allowedTenant });
    const insider = new HttpClient(company.url);
    expect((await roundTrip(insider)).callback.location).toBe('/app');
    expect((await session(insider)).signedIn).toBe(true);
  });
});

async function userCount(server: TestServer, username: string): Promise<number> {
  return server.deps.orm.em.fork().count(User, { usernameKey: username.toLowerCase() });
}

describe('PASSWORD_LOGIN=false', () => {
  it('refuses password login and registration; Microsoft is the only way in', async () => {
    const http = new HttpClient(company.url);
    expect(await session(http)).toMatchObject({ microsoftSignIn: true, passwordLogin: false });
    expect(await http.post('/api/auth/register', { username: 'no_passwords', password: 'secret123', fullName: 'No Passwords' })).toMatchObject({ status: 403, json: { message: microsoftSignInTexts.passwordLoginDisabled } });
    expect(await userCount(company, 'no_passwords')).toBe(0);
    expect(await http.post('/api/auth/login', { username: 'no_passwords', password: 'secret123' })).toMatchObject({ status: 403, json: { message: microsoftSignInTexts.passwordLoginDisabled } });
    entra.setAccount({ username: 'only.microsoft@contoso.example', tenantId: allowedTenant });
    expect((await roundTrip(http)).callback.location).toBe('/app');
    // No password can be set, and the account cannot be unlinked (it would have no way in).
    expect(await http.post('/trpc/auth.setPassword', { newPassword: 'secret123' })).toMatchObject({ status: 403 });
    expect(await http.post('/trpc/auth.unlinkMicrosoft')).toMatchObject({ status: 412, json: { error: { message: microsoftSignInTexts.unlinkPasswordLoginOff } } });
  });
});

describe('linking', () => {
  async function passwordUser(username: string) {
    const http = new HttpClient(open.url);
    const res = await http.post('/api/auth/register', { username, password: 'secret123', fullName: 'Link Tester' });
    expect(res.status).toBe(201);
    return { http, id: res.json.user.id as number };
  }

  it('a password user links their Microsoft account in Settings, then signs in either way', async () => {
    const { http, id } = await passwordUser('link_me');
    expect((await http.get('/trpc/auth.microsoftLink')).json.result.data).toEqual({ configured: true, linked: false, username: null, hasPassword: true, passwordLogin: true });
    entra.setAccount({ username: 'link.me@contoso.example', name: 'Link Me' });
    const steps = await roundTrip(http, { path: '/api/auth/microsoft/link' });
    expect(steps.callback).toEqual({ status: 302, location: '/settings?microsoft_linked=1' });
    expect((await http.get('/trpc/auth.microsoftLink')).json.result.data).toMatchObject({ linked: true, username: 'link.me@contoso.example' });
    expect(await connections(http)).toMatchObject({ email: { connected: true }, calendar: { connected: true } });
    // Microsoft signs in to this user...
    const viaMicrosoft = new HttpClient(open.url);
    expect((await roundTrip(viaMicrosoft)).callback.location).toBe('/app');
    expect((await session(viaMicrosoft)).user!.id).toBe(id);
    // ... and so does the password.
    expect((await new HttpClient(open.url).post('/api/auth/login', { username: 'link_me', password: 'secret123' })).status).toBe(200);
    const events = (await http.get('/api/security-events')).json.events.map((e: { kind: string }) => e.kind);
    expect(events).toContain('microsoft_linked');
  });

  it('refuses an Entra account already linked to another user, and linking without a session', async () => {
    entra.setAccount({ username: 'already.linked@contoso.example' });
    const owner = new HttpClient(open.url);
    expect((await roundTrip(owner)).callback.location).toBe('/app');
    const { http, id } = await passwordUser('link_taken');
    expect((await roundTrip(http, { path: '/api/auth/microsoft/link' })).callback.location).toBe('/settings?microsoft_error=linkedElsewhere');
    expect(microsoftSignInTexts.errors.linkedElsewhere).toMatch(/already linked to another/);
    expect((await userRow(open, id)).entraObjectId).toBeNull();
    expect((await connections(http)).email.connected).toBe(false);
    // Not signed in: linking goes to /login and sets no flow.
    const anonymous = new HttpClient(open.url);
    const res = await anonymous.get('/api/auth/microsoft/link');
    expect(res).toMatchObject({ status: 302 });
    expect(res.headers.get('location')).toBe('/login');
    // A link started in one session and brought back in another session of the same user links nothing.
    const other = new HttpClient(open.url);
    expect((await other.post('/api/auth/login', { username: 'link_taken', password: 'secret123' })).status).toBe(200);
    entra.setAccount({ username: 'cross.session@contoso.example' });
    const start = await http.get('/api/auth/microsoft/link');
    const authorize = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    // The other session has no flow cookie of its own; give it this one.
    const flowCookie = start.headers.getSetCookie().find((c) => c.startsWith('ms_sign_in='))!.split(';')[0]!;
    const crossed = await other.get(back.pathname + back.search, { cookie: `${other.cookieHeader}; ${flowCookie}` });
    expect(crossed.headers.get('location')).toBe('/settings?microsoft_error=state');
    expect((await userRow(open, id)).entraObjectId).toBeNull();
  });

  it('unlinking keeps the user and asks for a password first when there is none', async () => {
    entra.setAccount({ username: 'unlink.me@contoso.example', name: 'Unlink Me' });
    const http = new HttpClient(open.url);
    expect((await roundTrip(http)).callback.location).toBe('/app');
    const id = (await session(http)).user!.id;
    expect(await http.post('/trpc/auth.unlinkMicrosoft')).toMatchObject({ status: 412, json: { error: { message: microsoftSignInTexts.unlinkNeedsPassword } } });
    expect((await userRow(open, id)).entraObjectId).not.toBeNull();
    // A password that is too short names the problem.
    expect((await http.post('/trpc/auth.setPassword', { newPassword: '123' })).status).toBe(400);
    expect((await http.post('/trpc/auth.setPassword', { newPassword: 'new-secret-1' })).status).toBe(200);
    expect((await http.get('/trpc/auth.microsoftLink')).json.result.data).toMatchObject({ linked: true, hasPassword: true });
    // Changing it now asks for the current one.
    expect((await http.post('/trpc/auth.setPassword', { newPassword: 'new-secret-2' })).status).toBe(400);
    expect((await http.post('/trpc/auth.setPassword', { currentPassword: 'wrong-one', newPassword: 'new-secret-2' })).status).toBe(403);
    expect((await http.post('/trpc/auth.unlinkMicrosoft')).status).toBe(200);
    const row = await userRow(open, id);
    expect(row).toMatchObject({ entraObjectId: null, entraTenantId: null });
    expect((await session(http)).user!.id).toBe(id);
    expect((await new HttpClient(open.url).post('/api/auth/login', { username: 'unlink.me@contoso.example', password: 'new-secret-1' })).status).toBe(200);
    // The Entra account is free again: signing in with it now makes a new user.
    const again = new HttpClient(open.url);
    expect((await roundTrip(again)).callback.location).toBe('/app');
    expect((await session(again)).user!.id).not.toBe(id);
  });
});

describe('a user disabled in the tenant', () => {
  it('is signed out at the next refresh (invalid_grant), and every session of theirs ends', async () => {
    const account = entra.setAccount({ username: 'disabled.soon@contoso.example' });
    const first = new HttpClient(open.url);
    expect((await roundTrip(first)).callback.location).toBe('/app');
    const second = new HttpClient(open.url);
    expect((await roundTrip(second)).callback.location).toBe('/app');
    const id = (await session(first)).user!.id;
    // The stored tokens are about to expire: the next Graph call refreshes first.
    await open.deps.orm.em.fork().getConnection().execute('update microsoft_connection set expires_at = now() + interval \'1 minute\' where user_id = ?', [id]);
    entra.revokeRefreshTokens(account.username);
    const res = await first.get('/api/meetings');
    expect(res).toMatchObject({ status: 401, json: { message: microsoftSignInTexts.errors.signedOut } });
    expect((await session(first)).signedIn).toBe(false);
    expect((await session(second)).signedIn).toBe(false);
    // (In demo mode a visitor without a session reads the demo account: not this user.)
    expect((await session(first)).user?.id).not.toBe(id);
    const [{ n }] = await open.deps.orm.em.fork().getConnection().execute('select count(*)::int as n from auth_session where user_id = ?', [id]);
    expect(n).toBe(0);
  });
});

describe('demo and guests', () => {
  async function guestWithChat(title: string) {
    const http = new HttpClient(open.url);
    const created = await http.post('/api/chats', { title });
    expect(created.status, created.text).toBe(201);
    const me = await session(http);
    expect(me.guest).toBe(true);
    return { http, guestId: me.user!.id };
  }
  const chatTitles = async (http: HttpClient) => ((await http.get('/api/chats')).json as Array<{ title: string }>).map((c) => c.title);

  it('a guest who signs in with a new Microsoft account keeps their space: it becomes the account', async () => {
    const { http, guestId } = await guestWithChat('My guest chat');
    entra.setAccount({ username: 'from.guest@contoso.example', name: 'From Guest' });
    expect((await roundTrip(http)).callback.location).toBe('/app');
    const me = await session(http);
    expect(me).toMatchObject({ signedIn: true, guest: false, user: { id: guestId, username: 'from.guest@contoso.example', fullName: 'From Guest' } });
    expect(await chatTitles(http)).toContain('My guest chat');
    // The demo's samples stay behind.
    expect(await chatTitles(http)).not.toContain('Quarterly OKR planning');
    expect((await http.get('/api/goals')).json.goals).toEqual([]);
    expect(await userRow(open, guestId)).toMatchObject({ isGuest: false, guestOrigin: null });
  });

  it('a guest who signs in to an existing account brings their space into it', async () => {
    entra.setAccount({ username: 'existing.owner@contoso.example', name: 'Existing Owner' });
    const owner = new HttpClient(open.url);
    expect((await roundTrip(owner)).callback.location).toBe('/app');
    expect((await owner.post('/api/chats', { title: 'Owner chat' })).status).toBe(201);
    const ownerId = (await session(owner)).user!.id;
    const { http, guestId } = await guestWithChat('Guest chat to keep');
    expect((await roundTrip(http)).callback.location).toBe('/app');
    expect((await session(http)).user!.id).toBe(ownerId);
    expect(await chatTitles(http)).toEqual(expect.arrayContaining(['Owner chat', 'Guest chat to keep']));
    expect(await chatTitles(http)).not.toContain('Quarterly OKR planning');
    expect(await open.deps.orm.em.fork().count(User, { id: guestId })).toBe(0);
  });
});

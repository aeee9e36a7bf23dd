import crypto from 'node:crypto';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testTlsOptions } from '../tls.js';

// A local https server speaking the slice of the Microsoft identity platform (v2.0) the app
// uses: OpenID discovery, authorize (signs the one fake account in at once and redirects with a
// code), token (authorization_code with PKCE S256, refresh_token, device_code with
// authorization_pending / expired_token / authorization_declined), and devicecode. Tokens are
// random strings; onAccessToken lets a test hand each new access token to the Graph fake.
// For 'Sign in with Microsoft': the ID token carries the authorize request's nonce, the signed-in
// account can be switched (another person, another tenant), and authorize can answer with an
// error (the user declined, consent refused) as Entra ID does: a redirect with error and state.
// A refresh token stays valid after use, as Entra ID's do, until revoked.

export type FakeEntraOptions = {
  port?: number;
  account?: string;
  clientId?: string;
  /** Called for every access token issued (sign-in or refresh). */
  onAccessToken?: (accessToken: string, account: string) => void;
  /** Seconds an access token lives (expires_in). */
  accessTokenLifetime?: number;
  /** Device codes live this many seconds (expires_in). */
  deviceCodeLifetime?: number;
  /** Seconds between polls the client is told to keep (interval). */
  deviceCodeInterval?: number;
};

/** An Entra ID account: its tenant and object ids name it. */
export type FakeEntraAccount = { username: string; tenantId: string; objectId: string; name: string };
export type FakeEntra = {
  /** The account that signs in from now on (authorize and device codes); objectId and name are derived when left out. */
  setAccount(account: { username: string; tenantId?: string; objectId?: string; name?: string }): FakeEntraAccount;
  /** The account signing in now. */
  readonly account: FakeEntraAccount;
  /** The next authorize requests redirect back with this error (null: sign in). */
  setAuthorizeError(error: { error: string; description: string } | null): void;
  /** The ID tokens issued from now on carry this nonce instead of the authorize request's (null: the request's). */
  setIdTokenNonce(nonce: string | null): void;
  /** The authority host, e.g. https://localhost:PORT (MICROSOFT_AUTHORITY_HOST). */
  url: string;
  /** host:port, as listed in MSAL's knownAuthorities. */
  host: string;
  /** Approve the device code with this user code (default: the latest). */
  approveDeviceCode(userCode?: string): void;
  /** Approve each new device code on its nth poll (0 = only by approveDeviceCode). */
  approveAfterPolls(polls: number): void;
  declineDeviceCode(userCode?: string): void;
  expireDeviceCodes(): void;
  /** Every refresh token issued so far (or only the account's) now answers invalid_grant (as after a password reset, or the account disabled). */
  revokeRefreshTokens(username?: string): void;
  /** Seconds the access tokens issued from now on live (expires_in); null: the option's lifetime. */
  setAccessTokenLifetime(seconds: number | null): void;
  /** A pause before every token answer, so overlapping requests can be observed. */
  setTokenDelayMs(ms: number): void;
  /** Token requests seen, by grant type, with the scope asked (no secrets kept). */
  tokenRequests: Array<{ grantType: string; status: number; error?: string; scope?: string }>;
  /** The query of each authorize request, in order. */
  authorizeRequests: Array<Record<string, string>>;
  /** The scope parameter of each authorize and devicecode request, in order. */
  scopeRequests: Array<{ endpoint: 'authorize' | 'devicecode'; scope: string }>;
  pollsOf(userCode: string): number;
  close(): Promise<void>;
};

type DeviceCode = { deviceCode: string; userCode: string; expiresAt: number; polls: number; state: 'pending' | 'approved' | 'declined' | 'redeemed'; account: FakeEntraAccount };

const random = (bytes = 24) => crypto.randomBytes(bytes).toString('base64url');
const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startFakeEntra(options: FakeEntraOptions = {}): Promise<FakeEntra> {
  const defaultTenantId = '72f988bf-86f1-41af-91ab-2d7cd011db47';
  const makeAccount = (a: { username: string; tenantId?: string; objectId?: string; name?: string }): FakeEntraAccount => {
    const hex = crypto.createHash('sha1').update(`${a.tenantId ?? defaultTenantId}/${a.username}`).digest('hex');
    return {
      username: a.username,
      tenantId: a.tenantId ?? defaultTenantId,
      // A GUID, as Entra ID's object ids are.
      objectId: a.objectId ?? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`,
      name: a.name ?? a.username.split('@')[0]!.split(/[._-]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join(' '),
    };
  };
  let current = makeAccount({ username: options.account ?? 'alex.morgan@contoso.example', name: options.account ? undefined : 'Alex Morgan' });
  let authorizeError: { error: string; description: string } | null = null;
  let nonceOverride: string | null = null;
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string; account: FakeEntraAccount; nonce: string | null }>();
  const refreshTokens = new Map<string, FakeEntraAccount>();
  const deviceCodes = new Map<string, DeviceCode>();
  let approveAfter = 0;
  let lifetime: number | null = null;
  let tokenDelayMs = 0;
  let origin = '';

  function tokens(clientId: string, account: FakeEntraAccount, nonce: string | null = null) {
    const { tenantId, objectId } = account;
    const accessToken = `fake-at-${random()}`;
    const refreshToken = `fake-rt-${random()}`;
    refreshTokens.set(refreshToken, account);
    options.onAccessToken?.(accessToken, account.username);
    const now = Math.floor(Date.now() / 1000);
    const idNonce = nonceOverride ?? nonce;
    const idToken = `${b64json({ alg: 'none', typ: 'JWT' })}.${b64json({
      aud: clientId, iss: `${origin}/${tenantId}/v2.0`, iat: now, nbf: now, exp: now + 3600,
      name: account.name, oid: objectId, sub: objectId, tid: tenantId, preferred_username: account.username, ver: '2.0',
      ...(idNonce ? { nonce: idNonce } : {}),
    })}.`;
    return {
      token_type: 'Bearer',
      scope: 'User.Read Mail.ReadWrite Mail.Send Calendars.ReadWrite Chat.Read openid profile offline_access',
      expires_in: lifetime ?? options.accessTokenLifetime ?? 3600,
      ext_expires_in: lifetime ?? options.accessTokenLifetime ?? 3600,
      access_token: accessToken,
      refresh_token: refreshToken,
      id_token: idToken,
      client_info: b64json({ uid: objectId, utid: tenantId }),
    };
  }

  const oauthError = (error: string, description: string) => ({ error, error_description: `AADSTS: ${description}`, error_codes: [70000], timestamp: new Date().toISOString() });

  async function form(req: IncomingMessage): Promise<URLSearchParams> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  }

  function json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  }

  const server = https.createServer(testTlsOptions(), async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const [tenant, ...rest] = url.pathname.split('/').filter(Boolean);
    const route = rest.join('/');
    if (!tenant) return json(res, 404, oauthError('invalid_request', 'Not found'));
    const base = `${origin}/${tenant}`;

    if (req.method === 'GET' && route === 'v2.0/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer: `${origin}/{tenantid}/v2.0`,
        authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
        token_endpoint: `${base}/oauth2/v2.0/token`,
        device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
        end_session_endpoint: `${base}/oauth2/v2.0/logout`,
        jwks_uri: `${base}/discovery/v2.0/keys`,
        response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
        response_modes_supported: ['query', 'fragment', 'form_post'],
        scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
        code_challenge_methods_supported: ['plain', 'S256'],
        tenant_region_scope: 'EU',
        cloud_instance_name: 'microsoftonline.com',
        cloud_graph_host_name: 'graph.windows.net',
        msgraph_host: 'graph.microsoft.com',
        rbac_url: 'https://pas.windows.net',
      });
    }

    if (req.method === 'GET' && route === 'oauth2/v2.0/authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri');
      const challenge = q.get('code_challenge');
      if (!redirectUri || !q.get('client_id')) return json(res, 400, oauthError('invalid_request', 'redirect_uri and client_id are required'));
      if (!challenge || q.get('code_challenge_method') !== 'S256') return json(res, 400, oauthError('invalid_request', 'PKCE S256 is required'));
      // The fake account signs in and consents at once (or the set error comes back instead).
      fake.scopeRequests.push({ endpoint: 'authorize', scope: q.get('scope') ?? '' });
      fake.authorizeRequests.push(Object.fromEntries(q));
      const back = new URL(redirectUri);
      if (authorizeError) {
        back.searchParams.set('error', authorizeError.error);
        back.searchParams.set('error_description', `AADSTS65004: ${authorizeError.description}`);
        if (q.get('state')) back.searchParams.set('state', q.get('state')!);
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      const code = `fake-code-${random()}`;
      codes.set(code, { challenge, redirectUri, clientId: q.get('client_id')!, account: current, nonce: q.get('nonce') || null });
      back.searchParams.set('code', code);
      if (q.get('state')) back.searchParams.set('state', q.get('state')!);
      back.searchParams.set('client_info', b64json({ uid: current.objectId, utid: current.tenantId }));
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }

    if (req.method === 'POST' && route === 'oauth2/v2.0/devicecode') {
      const body = await form(req);
      if (!body.get('client_id')) return json(res, 400, oauthError('invalid_request', 'client_id is required'));
      fake.scopeRequests.push({ endpoint: 'devicecode', scope: body.get('scope') ?? '' });
      const userCode = random(6).replace(/[^A-Za-z0-9]/g, 'X').slice(0, 8).toUpperCase();
      const lifetime = options.deviceCodeLifetime ?? 900;
      const entry: DeviceCode = { deviceCode: `fake-dc-${random()}`, userCode, expiresAt: Date.now() + lifetime * 1000, polls: 0, state: 'pending', account: current };
      deviceCodes.set(userCode, entry);
      return json(res, 200, {
        user_code: userCode,
        device_code: entry.deviceCode,
        verification_uri: `${origin}/devicelogin`,
        expires_in: lifetime,
        interval: options.deviceCodeInterval ?? 5,
        message: `To sign in, use a web browser to open the page ${origin}/devicelogin and enter the code ${userCode} to authenticate.`,
      });
    }

    if (req.method === 'POST' && route === 'oauth2/v2.0/token') {
      const body = await form(req);
      if (tokenDelayMs) await new Promise((resolve) => setTimeout(resolve, tokenDelayMs));
      const grantType = body.get('grant_type') ?? '';
      const answer = (status: number, payload: Record<string, unknown>) => {
        fake.tokenRequests.push({ grantType, status, ...(typeof payload.error === 'string' ? { error: payload.error } : {}), ...(body.get('scope') ? { scope: body.get('scope')! } : {}) });
        return json(res, status, payload);
      };
      const clientId = body.get('client_id') ?? '';
      if (options.clientId && clientId !== options.clientId) return answer(400, oauthError('unauthorized_client', 'Unknown client'));
      if (grantType === 'authorization_code') {
        const code = codes.get(body.get('code') ?? '');
        codes.delete(body.get('code') ?? '');
        if (!code) return answer(400, oauthError('invalid_grant', 'The code is not valid or was already redeemed'));
        const verifier = body.get('code_verifier') ?? '';
        const expected = crypto.createHash('sha256').update(verifier).digest('base64url');
        if (expected !== code.challenge) return answer(400, oauthError('invalid_grant', 'The code_verifier does not match the code_challenge'));
        if (body.get('redirect_uri') !== code.redirectUri) return answer(400, oauthError('invalid_grant', 'The redirect_uri does not match'));
        return answer(200, tokens(clientId, code.account, code.nonce));
      }
      if (grantType === 'refresh_token') {
        const token = body.get('refresh_token') ?? '';
        const owner = refreshTokens.get(token);
        if (!owner) return answer(400, oauthError('invalid_grant', 'The refresh token has expired or was revoked'));
        return answer(200, tokens(clientId, owner));
      }
      if (grantType === 'urn:ietf:params:oauth:grant-type:device_code' || grantType === 'device_code') {
        const entry = [...deviceCodes.values()].find((d) => d.deviceCode === body.get('device_code'));
        if (!entry || entry.state === 'redeemed') return answer(400, oauthError('invalid_grant', 'Unknown device code'));
        entry.polls += 1;
        if (Date.now() > entry.expiresAt) return answer(400, oauthError('expired_token', 'The device code has expired'));
        if (entry.state === 'declined') return answer(400, oauthError('authorization_declined', 'The user declined'));
        if (entry.state === 'pending' && approveAfter > 0 && entry.polls >= approveAfter) entry.state = 'approved';
        if (entry.state !== 'approved') return answer(400, oauthError('authorization_pending', 'The user has not yet finished signing in'));
        entry.state = 'redeemed';
        return answer(200, tokens(clientId, entry.account));
      }
      return answer(400, oauthError('unsupported_grant_type', `Unsupported grant_type ${grantType}`));
    }

    if (req.method === 'GET' && url.pathname === '/devicelogin') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<!doctype html><title>Enter code</title><h1>Enter code</h1>');
    }
    return json(res, 404, oauthError('invalid_request', 'Not found'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `https://localhost:${port}`;
  const latest = () => [...deviceCodes.values()].at(-1);

  const fake: FakeEntra = {
    url: origin,
    host: `localhost:${port}`,
    tokenRequests: [],
    scopeRequests: [],
    authorizeRequests: [],
    setAccount(account) {
      current = makeAccount(account);
      return current;
    },
    get account() {
      return current;
    },
    setAuthorizeError(error) {
      authorizeError = error;
    },
    setIdTokenNonce(nonce) {
      nonceOverride = nonce;
    },
    approveDeviceCode(userCode) {
      const entry = userCode ? deviceCodes.get(userCode) : latest();
      if (entry && entry.state === 'pending') entry.state = 'approved';
    },
    approveAfterPolls(polls) {
      approveAfter = polls;
    },
    declineDeviceCode(userCode) {
      const entry = userCode ? deviceCodes.get(userCode) : latest();
      if (entry) entry.state = 'declined';
    },
    expireDeviceCodes() {
      for (const entry of deviceCodes.values()) entry.expiresAt = 0;
    },
    revokeRefreshTokens(username) {
      for (const [token, owner] of refreshTokens) if (!username || owner.username === username) refreshTokens.delete(token);
    },
    setAccessTokenLifetime(seconds) {
      lifetime = seconds;
    },
    setTokenDelayMs(ms) {
      tokenDelayMs = ms;
    },
    pollsOf: (userCode) => deviceCodes.get(userCode)?.polls ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

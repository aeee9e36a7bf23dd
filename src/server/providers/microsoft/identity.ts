import { ConfidentialClientApplication, PublicClientApplication, type AuthenticationResult, type Configuration } from '@azure/msal-node';
import type { MicrosoftConfig } from '../../config.js';

// Microsoft Entra ID sign-in. MSAL does the authorization-code flow (PKCE) and refreshes.
// The device-code flow is spoken here directly, one token request per poll: MSAL's
// acquireTokenByDeviceCode keeps its polling loop in the memory of one process, so a poll that
// lands on another instance could never complete it, and it treats slow_down as fatal.

export type ScopedService = 'email' | 'calendar' | 'teams';
const baseScopes = ['User.Read', 'offline_access'] as const;
// Each service asks for what it uses: the calendar reads and writes events (an agenda
// saved into an invite); email reads, moves and sends mail (an agenda emailed to attendees).
const serviceScopes: Record<ScopedService, readonly string[]> = {
  email: ['Mail.ReadWrite', 'Mail.Send'],
  calendar: ['Calendars.ReadWrite'],
  teams: ['Chat.Read'],
};
// With meeting debriefs on, the calendar also reads the user's Teams meetings and their transcripts.
export const debriefScopes = ['OnlineMeetings.Read', 'OnlineMeetingTranscript.Read.All'] as const;
export type ScopeOptions = { meetingDebriefs?: boolean };
/** The scopes one service's sign-in asks for (the default: email, the spec's default service). */
export function microsoftScopes(service: ScopedService = 'email', options: ScopeOptions = {}): string[] {
  const extra = service === 'calendar' && options.meetingDebriefs ? debriefScopes : [];
  return [baseScopes[0], ...serviceScopes[service], ...extra, baseScopes[1]];
}
// MSAL adds openid, profile and offline_access itself and refuses them in a request.
const msalScopes = (service?: ScopedService, options?: ScopeOptions) => microsoftScopes(service, options).filter((scope) => scope !== 'offline_access');
/**
 * 'Sign in with Microsoft' asks once for what the login, the mail and the calendar need:
 * openid profile email offline_access, and the email and calendar services' scopes.
 */
export function signInScopes(options: ScopeOptions = {}): string[] {
  return ['openid', 'profile', 'email', 'offline_access', ...new Set([...microsoftScopes('email'), ...microsoftScopes('calendar', options)].filter((scope) => scope !== 'offline_access'))];
}
const msalSignInScopes = (options?: ScopeOptions) => signInScopes(options).filter((scope) => !['openid', 'profile', 'offline_access'].includes(scope));

/** Who signed in, from the ID token MSAL checked (its nonce) and this module checked (issuer, audience). */
export type SignedInAccount = { tenantId: string; objectId: string; name: string | null; username: string | null };

export type ProviderTokens = { accessToken: string; refreshToken: string | null; expiresAt: Date | null; accountEmail: string | null };

/** A sign-in or refresh that only the user can fix (invalid_grant, consent, MFA). */
export class InteractionRequiredError extends Error {
  /** The identity platform's error code, e.g. invalid_grant (the account was disabled or deleted, or its tokens revoked). */
  constructor(message: string, readonly code: string = '') {
    super(message);
  }
}
/** The identity platform refused or could not be reached. */
export class IdentityError extends Error {}

export type DeviceCodeStart = { userCode: string; deviceCode: string; verificationUrl: string; expiresIn: number; interval: number; message: string };
export type DeviceCodePoll =
  | { state: 'pending'; slowDown: boolean }
  | { state: 'expired' }
  | { state: 'declined' }
  | { state: 'success'; tokens: ProviderTokens };

export type Identity = ReturnType<typeof createIdentity>;

export function createIdentity(config: MicrosoftConfig & { clientId: string }) {
  const authority = `${config.authorityHost}/${config.tenantId}`;
  const authorityHost = new URL(config.authorityHost).host;
  const endpoint = (name: 'token' | 'devicecode') => `${authority}/oauth2/v2.0/${name}`;

  // A fresh application (and so a fresh in-memory cache) per operation: nothing of one user's
  // sign-in stays in memory for the next, and the refresh token is read from that cache.
  function application() {
    const msalConfig: Configuration = {
      auth: {
        clientId: config.clientId,
        authority,
        // Lists the authority host so MSAL skips instance discovery (it trusts its own list).
        knownAuthorities: [authorityHost],
        ...(config.clientSecret ? { clientSecret: config.clientSecret } : {}),
      },
      system: { loggerOptions: { piiLoggingEnabled: false, logLevel: 0, loggerCallback: () => {} } },
    };
    return config.clientSecret ? new ConfidentialClientApplication(msalConfig) : new PublicClientApplication(msalConfig);
  }

  function fromResult(app: PublicClientApplication | ConfidentialClientApplication, result: AuthenticationResult | null): ProviderTokens {
    if (!result?.accessToken) throw new IdentityError('Microsoft returned no access token');
    const cache = JSON.parse(app.getTokenCache().serialize()) as { RefreshToken?: Record<string, { secret?: string }> };
    const refreshToken = Object.values(cache.RefreshToken ?? {})[0]?.secret ?? null;
    return {
      accessToken: result.accessToken,
      refreshToken,
      expiresAt: result.expiresOn ?? null,
      accountEmail: result.account?.username || null,
    };
  }

  function wrapError(error: unknown): never {
    const code = String((error as { errorCode?: unknown }).errorCode ?? '');
    if (/invalid_grant|interaction_required|consent_required|login_required|mfa/i.test(code)) {
      throw new InteractionRequiredError('Microsoft needs you to sign in again', code);
    }
    throw new IdentityError('Microsoft sign-in failed');
  }

  return {
    authorityHost,
    async authCodeUrl(params: { redirectUri: string; state: string; codeChallenge: string; loginHint?: string; service?: ScopedService }): Promise<string> {
      return application().getAuthCodeUrl({
        scopes: msalScopes(params.service, config),
        redirectUri: params.redirectUri,
        state: params.state,
        codeChallenge: params.codeChallenge,
        codeChallengeMethod: 'S256',
        prompt: 'select_account',
      });
    },

    /** The authorize URL of 'Sign in with Microsoft': OpenID Connect, code with PKCE S256, a nonce. */
    async signInUrl(params: { redirectUri: string; state: string; nonce: string; codeChallenge: string }): Promise<string> {
      return application().getAuthCodeUrl({
        scopes: msalSignInScopes(config),
        redirectUri: params.redirectUri,
        state: params.state,
        nonce: params.nonce,
        codeChallenge: params.codeChallenge,
        codeChallengeMethod: 'S256',
        prompt: 'select_account',
      });
    },

    /**
     * Redeems a sign-in code. MSAL compares the ID token's nonce with ours (a mismatch fails);
     * the issuer must be this authority for the token's tenant and the audience our client id.
     */
    async redeemSignIn(params: { code: string; codeVerifier: string; redirectUri: string; nonce: string }): Promise<{ tokens: ProviderTokens; account: SignedInAccount }> {
      const app = application();
      let result: AuthenticationResult | null;
      try {
        result = await app.acquireTokenByCode({ code: params.code, codeVerifier: params.codeVerifier, redirectUri: params.redirectUri, scopes: msalSignInScopes(config), nonce: params.nonce });
      } catch (error) {
        return wrapError(error);
      }
      const tokens = fromResult(app, result);
      const claims = (result?.idTokenClaims ?? {}) as Record<string, unknown>;
      const tenantId = typeof claims.tid === 'string' ? claims.tid.toLowerCase() : '';
      const objectId = typeof claims.oid === 'string' ? claims.oid.toLowerCase() : '';
      if (!tenantId || !objectId || claims.nonce !== params.nonce) throw new IdentityError('Microsoft returned no usable ID token');
      if (claims.aud !== config.clientId) throw new IdentityError('The ID token is for another application');
      if (typeof claims.iss !== 'string' || claims.iss.toLowerCase() !== `${config.authorityHost}/${tenantId}/v2.0`.toLowerCase()) {
        throw new IdentityError('The ID token comes from another issuer');
      }
      const text = (value: unknown, max: number) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null);
      return {
        tokens,
        account: { tenantId, objectId, name: text(claims.name, 100), username: text(claims.preferred_username ?? claims.email ?? claims.upn, 320) },
      };
    },

    async redeemCode(params: { code: string; codeVerifier: string; redirectUri: string; service?: ScopedService }): Promise<ProviderTokens> {
      const app = application();
      try {
        const result = await app.acquireTokenByCode({ code: params.code, codeVerifier: params.codeVerifier, redirectUri: params.redirectUri, scopes: msalScopes(params.service, config) });
        return fromResult(app, result);
      } catch (error) {
        return wrapError(error);
      }
    },

    async refresh(refreshToken: string, service?: ScopedService): Promise<ProviderTokens> {
      const app = application();
      try {
        const result = await app.acquireTokenByRefreshToken({ refreshToken, scopes: msalScopes(service, config), forceCache: true });
        const tokens = fromResult(app, result);
        // Entra ID may not rotate the refresh token: keep the one we had.
        return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
      } catch (error) {
        return wrapError(error);
      }
    },

    async startDeviceCode(service?: ScopedService): Promise<DeviceCodeStart> {
      const body = new URLSearchParams({ client_id: config.clientId, scope: microsoftScopes(service, config).join(' ') });
      const answer = await postForm(endpoint('devicecode'), body);
      if (!answer.ok || typeof answer.json.device_code !== 'string' || typeof answer.json.user_code !== 'string') {
        throw new IdentityError(`Microsoft refused the device code request (${answer.status})`);
      }
      const j = answer.json;
      return {
        deviceCode: j.device_code as string,
        userCode: j.user_code as string,
        verificationUrl: String(j.verification_uri ?? j.verification_url ?? ''),
        expiresIn: Number(j.expires_in ?? 900),
        interval: Number(j.interval ?? 5),
        message: String(j.message ?? ''),
      };
    },

    /** One token request for a device code: exactly one poll, whichever instance makes it. */
    async pollDeviceCode(deviceCode: string): Promise<DeviceCodePoll> {
      const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: config.clientId, device_code: deviceCode });
      if (config.clientSecret) body.set('client_secret', config.clientSecret);
      const answer = await postForm(endpoint('token'), body);
      if (answer.ok && typeof answer.json.access_token === 'string') {
        const expiresIn = Number(answer.json.expires_in ?? 3600);
        return {
          state: 'success',
          tokens: {
            accessToken: answer.json.access_token,
            refreshToken: typeof answer.json.refresh_token === 'string' ? answer.json.refresh_token : null,
            expiresAt: new Date(Date.now() + expiresIn * 1000),
            accountEmail: accountFromIdToken(answer.json.id_token),
          },
        };
      }
      const error = String(answer.json.error ?? '');
      if (error === 'authorization_pending') return { state: 'pending', slowDown: false };
      if (error === 'slow_down') return { state: 'pending', slowDown: true };
      if (error === 'expired_token' || error === 'code_expired') return { state: 'expired' };
      if (error === 'authorization_declined' || error === 'access_denied') return { state: 'declined' };
      throw new IdentityError(`Microsoft refused the device code (${error || answer.status})`);
    },
  };
}

async function postForm(url: string, body: URLSearchParams): Promise<{ ok: boolean; status: number; json: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body, signal: AbortSignal.timeout(15_000) });
  } catch {
    throw new IdentityError('Microsoft sign-in could not be reached');
  }
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { ok: response.ok, status: response.status, json: json && typeof json === 'object' ? json : {} };
}

/** The account name in an id token's payload (not verified: it only labels the connection). */
function accountFromIdToken(idToken: unknown): string | null {
  if (typeof idToken !== 'string') return null;
  try {
    const payload = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    const name = payload.preferred_username ?? payload.email ?? payload.upn;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

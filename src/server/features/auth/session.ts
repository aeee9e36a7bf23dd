import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { parseCookie as parseCookies, stringifySetCookie } from 'cookie';
import { getIronSession, sealData, unsealData, type SessionOptions } from 'iron-session';
import type { ApiKeyScope } from '../../../shared/schemas/apiKeys.js';
import type { SessionStore } from './sessionStore.js';
import { unsealCache } from './unsealCache.js';
import { configuredOrGeneratedSecret } from '../../generatedSecret.js';

// The sealed cookie holds only the opaque token of a server-side session (sessionStore.ts).
type CookieData = { token?: string };

export const sessionCookieName = 'ai_coach_session';
// The access-key grant (the product spec's REST calls): HttpOnly, sealed, naming the visitor's guest account.
export const accessKeyCookieName = 'access_key';
export const accessGrantSeconds = 86_400;
type AccessGrant = { guestUserId: number; expiresAt: number };

/** The request's session: who it is for, and the two ways to change it (HTTP only). */
export type Session = {
  /** The signed-in user of a live session. */
  userId: number | undefined;
  /** The live session's id (not the cookie's token). */
  id: string | undefined;
  /** The cookie named a session that has ended: the request is not signed in (and not the demo user). */
  ended: boolean;
  /** Whether `start` can set a session cookie (an HTTP request; not a WebSocket, not an API key). */
  canStart: boolean;
  /** Signed in by an `Authorization: Bearer` API key for this request only (no cookie session). */
  viaApiKey?: boolean;
  /** With an API key: the scopes it was given (procedures open to keys name the scopes they accept). */
  keyScopes?: readonly ApiKeyScope[];
  /**
   * Starts a session for `userId`. Over HTTP it sets the cookie; over a WebSocket (`overSocket`,
   * a guest space started by a write on the socket) the session lives for the connection only.
   */
  start(userId: number, options?: { lifetimeSeconds?: number; overSocket?: boolean }): Promise<void>;
  /** Set on a WebSocket's session: a session started on the socket is watched like one it opened with. */
  onStarted?: (sessionId: string) => void;
  end(): Promise<void>;
  /** The guest account a valid access-key grant cookie names. */
  grantedGuest(): Promise<number | undefined>;
  /** Sets the access-key grant cookie for a guest account (HTTP only). */
  grantAccess(guestUserId: number): Promise<void>;
  /** Removes the access-key grant cookie, if the request has one (HTTP only). */
  revokeAccess(): void;
};

type RequestMeta = { headers: IncomingHttpHeaders; clientIp: string };

function sessionOptions(password: string, secure: boolean, ttl: number): SessionOptions {
  return {
    cookieName: sessionCookieName,
    password,
    ttl,
    cookieOptions: { httpOnly: true, sameSite: 'lax', secure, path: '/' },
  };
}

function cookieStore(headers: IncomingHttpHeaders, res: ServerResponse | undefined) {
  const cookies = parseCookies(headers.cookie ?? '');
  return {
    get: (name: string) => (cookies[name] === undefined ? undefined : { name, value: cookies[name] as string }),
    set: (name: string, value: string, options: object) => {
      if (!res) throw new Error('The session cannot be changed over a WebSocket; use HTTP.');
      appendSetCookie(res, name, stringifySetCookie({ ...options, name, value } as Parameters<typeof stringifySetCookie>[0]));
    },
  };
}

/** Whether the request carries a session cookie (not whether it is a valid one). */
export function hasSessionCookie(request: { headers: { cookie?: string } }): boolean {
  return parseCookies(request.headers.cookie ?? '')[sessionCookieName] !== undefined;
}

export function appendSetCookie(res: ServerResponse, name: string, header: string) {
  const previous = res.getHeader('Set-Cookie');
  const list = Array.isArray(previous) ? previous : previous ? [String(previous)] : [];
  res.setHeader('Set-Cookie', [...list.filter((c) => !c.startsWith(`${name}=`)), header]);
}

/**
 * Opens the session a request's cookie names. With `res` (HTTP) it can start and end sessions;
 * without (a WebSocket upgrade) it is read-only.
 */
export async function openSession(
  deps: { sessionPassword: string; sessions: SessionStore; lifetimeSeconds: number },
  request: RequestMeta,
  res: ServerResponse | undefined,
  secure: boolean,
): Promise<Session> {
  // Read through the unseal cache (unsealCache.ts); iron-session writes the cookie when it changes.
  const cookie = parseCookies(request.headers.cookie ?? '')[sessionCookieName];
  const data: Readonly<CookieData> = cookie ? await unsealCache.unseal<CookieData>(cookie, deps.sessionPassword, deps.lifetimeSeconds) : {};
  const token = typeof data.token === 'string' && data.token ? data.token : undefined;
  // A fresh iron-session bound to the response (nothing to unseal): saves a new cookie or clears it.
  const writable = () => getIronSession<CookieData>(cookieStore({}, res), sessionOptions(deps.sessionPassword, secure, deps.lifetimeSeconds));
  const destroy = async () => (await writable()).destroy();
  const live = token ? await deps.sessions.lookup(token) : null;
  const session: Session = {
    userId: live?.userId,
    id: live?.id,
    ended: Boolean(token) && !live,
    canStart: Boolean(res),
    async start(userId, startOptions) {
      if (!res && !startOptions?.overSocket) throw new Error('The session cannot be changed over a WebSocket; use HTTP.');
      if (session.id) await deps.sessions.end([session.id]);
      const userAgent = request.headers['user-agent'];
      const created = await deps.sessions.create(userId, { userAgent, address: request.clientIp, lifetimeSeconds: startOptions?.lifetimeSeconds });
      if (res) {
        const sealed = await writable();
        sealed.token = created.token;
        await sealed.save();
      }
      Object.assign(session, { userId, id: created.id, ended: false });
      session.onStarted?.(created.id);
    },
    async end() {
      if (session.id) await deps.sessions.end([session.id]);
      if (res) await destroy();
      session.revokeAccess();
      Object.assign(session, { userId: undefined, id: undefined });
    },
    async grantedGuest() {
      const value = parseCookies(request.headers.cookie ?? '')[accessKeyCookieName];
      if (!value) return undefined;
      try {
        const grant = await unsealData<Partial<AccessGrant>>(value, { password: deps.sessionPassword, ttl: accessGrantSeconds });
        return typeof grant.guestUserId === 'number' && (grant.expiresAt ?? 0) > Date.now() ? grant.guestUserId : undefined;
      } catch {
        return undefined; // tampered or sealed with another secret
      }
    },
    revokeAccess() {
      if (!res || !request.headers.cookie?.includes(`${accessKeyCookieName}=`)) return;
      appendSetCookie(res, accessKeyCookieName, stringifySetCookie({ name: accessKeyCookieName, value: '', httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0 }));
    },
    async grantAccess(guestUserId) {
      if (!res) throw new Error('Access cannot be granted over a WebSocket; use HTTP.');
      const grant: AccessGrant = { guestUserId, expiresAt: Date.now() + accessGrantSeconds * 1000 };
      const value = await sealData(grant, { password: deps.sessionPassword, ttl: accessGrantSeconds });
      appendSetCookie(res, accessKeyCookieName, stringifySetCookie({ name: accessKeyCookieName, value, httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: accessGrantSeconds }));
    },
  };
  // A browser holding the cookie of an ended session loses it (it becomes a visitor again).
  if (session.ended && res) await destroy();
  return session;
}

// SESSION_SECRET when set; otherwise a secret generated once and kept (0600) in DATA_DIR.
export function resolveSessionPassword(configured: string | undefined, dataDir: string): string {
  return configuredOrGeneratedSecret(configured, dataDir, 'session-secret');
}

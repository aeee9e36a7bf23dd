import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { parseCookie as parseCookies, stringifySetCookie } from 'cookie';
import { getIronSession, type IronSession, type SessionOptions } from 'iron-session';

export type SessionData = { userId?: number };
export type Session = IronSession<SessionData>;

export const sessionCookieName = 'ai_coach_session';
const thirtyDays = 60 * 60 * 24 * 30;

function sessionOptions(password: string, secure: boolean): SessionOptions {
  return {
    cookieName: sessionCookieName,
    password,
    ttl: thirtyDays,
    cookieOptions: { httpOnly: true, sameSite: 'lax', secure, path: '/' },
  };
}

// HTTP: the session can be read and written (Set-Cookie goes on the response).
export function openHttpSession(
  password: string,
  headers: IncomingHttpHeaders,
  res: ServerResponse,
  secure: boolean,
): Promise<Session> {
  const cookies = parseCookies(headers.cookie ?? '');
  return getIronSession<SessionData>(
    {
      get: (name) => (cookies[name] === undefined ? undefined : { name, value: cookies[name] as string }),
      set: (name, value, options) => {
        const header = stringifySetCookie({ ...options, name, value } as Parameters<typeof stringifySetCookie>[0]);
        const previous = res.getHeader('Set-Cookie');
        const list = Array.isArray(previous) ? previous : previous ? [String(previous)] : [];
        res.setHeader('Set-Cookie', [...list.filter((c) => !c.startsWith(`${name}=`)), header]);
      },
    },
    sessionOptions(password, secure),
  );
}

// WebSocket upgrades have no response: the session is a read-only snapshot of the cookie.
export function openReadOnlySession(password: string, headers: IncomingHttpHeaders): Promise<Session> {
  const cookies = parseCookies(headers.cookie ?? '');
  return getIronSession<SessionData>(
    {
      get: (name) => (cookies[name] === undefined ? undefined : { name, value: cookies[name] as string }),
      set: () => {
        throw new Error('The session cannot be changed over a WebSocket; use HTTP.');
      },
    },
    sessionOptions(password, false),
  );
}

// SESSION_SECRET when set; otherwise a secret generated once and kept (0600) in DATA_DIR.
export function resolveSessionPassword(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'session-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not there yet: generated below
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

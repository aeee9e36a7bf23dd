import crypto from 'node:crypto';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.js';

// A voice turn hands the client small signed tokens (a provisional turn's keep token, a reply's
// speech allowance): the server keeps no state between the requests (any instance may answer the
// next one), so what a token stands for travels in it, signed with the session secret. Each kind
// is signed under its own purpose, so one kind is never taken for another.

function signature(deps: Pick<AppDeps, 'sessionPassword'>, purpose: string, body: string): Buffer {
  return crypto.createHmac('sha256', deps.sessionPassword).update(`${purpose}\0${body}`).digest();
}

/** `payload` as `<base64url JSON>.<base64url HMAC-SHA256>`. */
export function signToken(deps: Pick<AppDeps, 'sessionPassword'>, purpose: string, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${signature(deps, purpose, body).toString('base64url')}`;
}

/** The token's payload when it is well formed, signed for `purpose` and of `schema`'s shape; else null. */
export function readToken<T extends z.ZodType>(deps: Pick<AppDeps, 'sessionPassword'>, purpose: string, token: string, schema: T): z.output<T> | null {
  const [body, given, extra] = token.split('.');
  if (!body || !given || extra !== undefined) return null;
  const expected = signature(deps, purpose, body);
  const received = Buffer.from(given, 'base64url');
  if (received.length !== expected.length || !crypto.timingSafeEqual(received, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const payload = schema.safeParse(parsed);
  return payload.success ? payload.data : null;
}

/** A nonce for a token that may be spent once (or a counted number of times). */
export const tokenNonce = () => crypto.randomBytes(16).toString('base64url');

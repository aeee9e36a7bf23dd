import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { TRPCError } from '@trpc/server';
import { isApiKeyScope, type ApiKeyScope } from '../../../shared/schemas/apiKeys.js';
import { apiKeyTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import type { Session } from '../auth/index.js';
import { RateLimitError } from '../limits/index.js';
import { rateLimitAddressKey } from '../limits/index.js';

// `Authorization: Bearer aic_...` signs a request in as the key's owner. The key is
// 'aic_' and 32 random bytes in base64url; the database keeps its SHA-256 only. Every request
// looks the key up, so a revoked key (or the key of a deleted account) answers 401 at once on
// every instance.

const keyPrefix = 'aic_';
const lastUsedWriteMs = 60_000;

export function newApiKey(): { key: string; prefix: string; keyHash: string } {
  const key = keyPrefix + crypto.randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, keyPrefix.length + 8), keyHash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

/**
 * The API key a request signs in with, or undefined when the request signs in some other way.
 * A token of our key format always counts as a key (wrong or not). Any other bearer token counts
 * as a wrong key only on a request without cookies: a browser client (or an SDK given a
 * placeholder key next to the session cookie) keeps signing in with its cookie.
 */
export function apiKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.authorization;
  if (!header) return undefined;
  // 'Bearer', whitespace, the token, maybe trailing whitespace (read without a backtracking pattern).
  const scheme = /^Bearer\s+/i.exec(header);
  const rest = scheme ? header.slice(scheme[0].length).trimEnd() : '';
  const token = /\s/.test(rest) ? '' : rest;
  if (token.startsWith(keyPrefix) || !headers.cookie) return token;
  return undefined;
}

/**
 * The session of a request signed with an API key. A right key costs no limit (its 256 random
 * bits cannot be guessed, and a script's parallel calls must not lock it out). Every wrong key
 * spends a point of the address's guess budget (the one failed logins and access-key guesses use)
 * before it is answered, so wrong keys in parallel count one by one, and an address past its
 * budget gets 429.
 */
export async function apiKeySession(deps: Pick<AppDeps, 'orm' | 'rateLimits'>, token: string, clientIp: string): Promise<Session> {
  const connection = deps.orm.em.fork().getConnection();
  const rows: Array<{ id: number; owner_id: number; last_used_at: Date | string | null; expires_at: Date | string | null; scopes: unknown }> = token.startsWith(keyPrefix)
    ? await connection.execute('select id, owner_id, last_used_at, expires_at, scopes from api_key where key_hash = ?', [hashApiKey(token)])
    : [];
  const row = rows[0];
  if (!row) {
    try {
      await deps.rateLimits.loginPerAddress.consume(rateLimitAddressKey(clientIp));
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      throw new RateLimitError(apiKeyTexts.tooManyGuesses(Math.ceil(error.retryAfterSeconds / 60)), error.retryAfterSeconds);
    }
    throw new TRPCError({ code: 'UNAUTHORIZED', message: apiKeyTexts.invalidKey });
  }
  // An expired key is a right key past its time: 401, and no guess spent.
  if (row.expires_at && new Date(row.expires_at).getTime() <= Date.now()) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: apiKeyTexts.expiredKey });
  }
  const lastUsed = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
  if (Date.now() - lastUsed >= lastUsedWriteMs) {
    await connection.execute('update api_key set last_used_at = ? where id = ?', [new Date(), row.id]);
    // A request with a key is a use of the account too (its member state: active, not inactive).
    await connection.execute('update app_user set last_seen_at = ? where id = ?', [new Date(), row.owner_id]);
  }
  return keySession(row.owner_id, scopesOf(row.scopes));
}

// The driver hands a text[] over as an array (or, on some paths, as its text form '{chat,goals}').
function scopesOf(value: unknown): ApiKeyScope[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.replace(/^\{|\}$/g, '').split(',') : [];
  return list.filter(isApiKeyScope);
}

// Signed in as the key's owner, for this request only: a key cannot sign in, out, or pass the
// access-key gate, and it is never the demo visitor.
function keySession(userId: number, keyScopes: ApiKeyScope[]): Session {
  const refuse = async (): Promise<never> => {
    throw new TRPCError({ code: 'FORBIDDEN', message: apiKeyTexts.sessionOnly });
  };
  return {
    userId,
    id: undefined,
    ended: false,
    canStart: false,
    viaApiKey: true,
    keyScopes,
    start: refuse,
    end: refuse,
    grantedGuest: async () => undefined,
    grantAccess: refuse,
    revokeAccess: () => {},
  };
}

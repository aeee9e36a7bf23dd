import type { Session } from '../features/auth/session.js';
import type { FactSources } from '../providers/ai/contract.js';

// The coach's fact-source policy for a turn a request starts: what it may read beyond the user's
// own data (their mailbox, their calendar), by how the request came in.

/**
 * What the coach may read beyond the user's own data for a turn this request starts: everything
 * for a browser session; with an API key, the mailbox only with `mail:read` and the calendar only
 * with `calendar:read`.
 */
export function factSourcesOf(session: Pick<Session, 'viaApiKey' | 'keyScopes'>): FactSources {
  if (!session.viaApiKey) return { mail: true, calendar: true };
  const held = session.keyScopes ?? [];
  return { mail: held.includes('mail:read'), calendar: held.includes('calendar:read') };
}

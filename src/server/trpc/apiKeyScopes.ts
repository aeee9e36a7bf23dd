import { TRPCError } from '@trpc/server';
import type { ApiKeyScope } from '../../shared/schemas/apiKeys.js';
import type { AdminAuditAction } from '../../shared/schemas/organisations.js';
import { apiKeyTexts } from '../../shared/texts/index.js';
import type { Session } from '../features/auth/session.js';

// What an API key may call: a procedure opens itself to keys by its meta (the scopes it accepts),
// and a key reaches it only with one of them. Checked before the procedure's input is read.

/** What a procedure declares about API keys (tRPC meta). */
export type ProcedureMeta = {
  /**
   * The key scopes that open this procedure to an API key (any one of them is enough); 'any' for
   * every key. Absent: closed to keys (403 before any work).
   */
  keys?: readonly ApiKeyScope[] | 'any';
  /**
   * What a demo visitor without a space of their own gets from this mutation: by default a guest
   * space made for it (and the mutation acts on that); `refused`: 403 with this message, nothing
   * made (a space made only to be acted on would be pointless: deleting the account).
   */
  visitor?: { refused: string };
  /** An admin mutation's action in the organisation's audit log (required: features/organisations/audit.ts). */
  audit?: AdminAuditAction;
};

/** Refuses an API key that the procedure does not open itself to, before its input is read. */
export function refuseUnscopedKey(session: Pick<Session, 'viaApiKey' | 'keyScopes'>, meta: ProcedureMeta | undefined): void {
  if (!session.viaApiKey) return;
  const accepted = meta?.keys;
  if (!accepted) throw new TRPCError({ code: 'FORBIDDEN', message: apiKeyTexts.notWithApiKey });
  if (accepted === 'any') return;
  const held = session.keyScopes ?? [];
  if (!accepted.some((scope) => held.includes(scope))) throw new TRPCError({ code: 'FORBIDDEN', message: apiKeyTexts.missingScope(accepted[0]!) });
}

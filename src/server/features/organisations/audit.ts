import type { EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import { adminAuditLimits, type AdminAuditAction, type ListAdminAuditInput } from '../../../shared/schemas/organisations.js';
import { AdminAuditEvent, type AuditChanges } from '../../db/entities/AdminAuditEvent.js';
import type { User } from '../../db/entities/User.js';
import type { AuthedContext } from '../../trpc/context.js';

// The audit log of the organisation's administration. Recorded in one place: the adminProcedure
// middleware (src/server/trpc/init.ts) runs every admin mutation through `runAudited`, which
// refuses a mutation that declares no audit action (`.meta({ audit })`), runs it in a transaction,
// and writes its row in that same transaction when it succeeds (a failed one writes nothing, and
// its changes roll back with it). The handler only adds what it alone knows: the target and the
// changed fields (`ctx.audit.note`). test/server/adminConsole.test.ts calls every admin mutation and
// looks for its row, so one added later without an action fails there.

/** What a handler adds to its mutation's audit row. */
export type AuditNote = { target?: string | null; changes?: Record<string, unknown> };

export class AuditNotes {
  readonly notes: AuditNote[] = [];
  constructor(private readonly open: boolean) {}
  /** The target and changed fields of this mutation (several notes: several rows). */
  note(entry: AuditNote): void {
    if (!this.open) throw new Error('Only an admin mutation records an audit row');
    this.notes.push(entry);
  }
}

const maxKeys = 20;
const maxText = 200;
// A field whose name says secret is never written, whatever a handler passes.
const secretKey = /token|password|secret|hash|key/i;

/** Short scalar values only: never a token, never a long text. */
export function auditChanges(changes: Record<string, unknown> | undefined): AuditChanges | null {
  if (!changes) return null;
  const kept: AuditChanges = {};
  for (const [key, value] of Object.entries(changes).slice(0, maxKeys)) {
    if (secretKey.test(key) || value === undefined) continue;
    if (value === null || typeof value === 'number' || typeof value === 'boolean') kept[key] = value;
    else if (typeof value === 'string') kept[key] = value.slice(0, maxText);
  }
  return Object.keys(kept).length ? kept : null;
}

type Result = { ok: boolean };

class RolledBack extends Error {}

/**
 * Runs an admin mutation in a transaction and records its audit row there: the change and its
 * record are written together or not at all.
 */
export async function runAudited<R extends Result>(
  em: EntityManager,
  actor: Pick<User, 'id' | 'fullName' | 'organisationId'>,
  path: string,
  action: AdminAuditAction | undefined,
  run: (tx: EntityManager, audit: AuditNotes) => Promise<R>,
): Promise<R> {
  // A programming error, met by the test that calls every admin mutation.
  if (!action) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: `${path} declares no audit action` });
  let failed: R | undefined;
  try {
    return await em.transactional(async (tx) => {
      const audit = new AuditNotes(true);
      const result = await run(tx, audit);
      if (!result.ok) {
        failed = result;
        throw new RolledBack();
      }
      for (const note of audit.notes.length ? audit.notes : [{}]) {
        tx.create(AdminAuditEvent, {
          organisationId: actor.organisationId,
          actorKind: 'admin',
          actorUserId: actor.id,
          actorName: actor.fullName.slice(0, 200),
          action,
          target: note.target?.slice(0, 200) ?? null,
          changes: auditChanges(note.changes),
        });
      }
      await tx.flush();
      return result;
    });
  } catch (error) {
    if (failed && error instanceof RolledBack) return failed;
    throw error;
  }
}

/** What the identity provider's provisioning did, under its token's prefix (SCIM). */
export async function recordProvisioning(em: EntityManager, organisationId: number, tokenPrefix: string, action: AdminAuditAction, note: AuditNote): Promise<void> {
  em.create(AdminAuditEvent, {
    organisationId,
    actorKind: 'provisioning',
    actorUserId: null,
    actorName: tokenPrefix,
    action,
    target: note.target?.slice(0, 200) ?? null,
    changes: auditChanges(note.changes),
  });
  await em.flush();
}

/** A member as an audit row names them: their id and their name at the time. */
export const memberTarget = (user: Pick<User, 'id' | 'fullName'>) => `#${user.id} ${user.fullName}`.slice(0, 200);

export type AdminAuditView = ReturnType<AdminAuditEvent['toView']>;

/** The organisation's audit log, newest first; `nextCursor` asks for the older page. */
export async function listAdminAudit(ctx: AuthedContext, input: ListAdminAuditInput): Promise<{ events: AdminAuditView[]; nextCursor: number | null }> {
  const limit = Number(input?.limit ?? adminAuditLimits.defaultPage);
  const base = { organisationId: ctx.user.organisationId };
  const where = input?.cursor === undefined ? base : { ...base, id: { $lt: Number(input.cursor) } };
  const rows = await ctx.em.find(AdminAuditEvent, where, { orderBy: { id: 'desc' }, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return { events: page.map((row) => row.toView()), nextCursor: rows.length > limit ? page[page.length - 1]!.id : null };
}

/** An admin procedure's context: the admin, and (in a mutation) where its audit row's details go. */
export type AdminContext = AuthedContext & { audit: AuditNotes };

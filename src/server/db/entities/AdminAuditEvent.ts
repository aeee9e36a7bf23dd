import { defineEntity, p } from '@mikro-orm/core';
import { adminAuditActions } from '../../../shared/schemas/organisations.js';

// One thing an admin (or the identity provider's provisioning) did to the organisation: who, as
// they were named then (the row stays when that admin's account is deleted: the actor is a plain
// id, no relation, so deleting an account keeps the organisation's record), the action, its
// target (a member id, a token prefix) and a small JSON of the changed fields. Never a token, never
// anyone's coaching text (audit.ts keeps `changes` to short scalar values).
export const actorKinds = ['admin', 'provisioning'] as const;

export const AdminAuditEventSchema = defineEntity({
  name: 'AdminAuditEvent',
  tableName: 'admin_audit_event',
  indexes: [{ name: 'admin_audit_event_organisation_idx', properties: ['organisationId', 'id'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    organisationId: p.integer(),
    actorKind: p.enum(actorKinds).default('admin'),
    /** The admin's user id (null for provisioning); no foreign key, so the row outlives the account. */
    actorUserId: p.integer().nullable(),
    /** The admin's name at the time, or the provisioning token's prefix. */
    actorName: p.string().length(200),
    action: p.enum(adminAuditActions),
    target: p.string().length(200).nullable(),
    changes: p.json<AuditChanges>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/** The changed fields: short scalar values only. */
export type AuditChanges = Record<string, string | number | boolean | null>;

export class AdminAuditEvent extends AdminAuditEventSchema.class {
  toView() {
    return {
      id: this.id,
      createdAt: this.createdAt.toISOString(),
      actorKind: this.actorKind,
      actorUserId: this.actorUserId ?? null,
      actorName: this.actorName,
      action: this.action,
      target: this.target ?? null,
      changes: this.changes ?? null,
    };
  }
}
AdminAuditEventSchema.setClass(AdminAuditEvent);

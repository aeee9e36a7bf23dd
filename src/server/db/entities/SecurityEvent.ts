import { defineEntity, p } from '@mikro-orm/core';
import type { SecurityEventKind } from '../../../shared/schemas/security.js';
import { User } from './User.js';

// One entry of an account's security activity: a sign-in, a key made, an export...
// with when, from which address and which browser. The user reads them in Settings and through
// GET /api/security-events; they go with the account and are in its export. The kind is a plain
// column checked by the type (securityEventKinds), so a new kind needs no migration.
export const SecurityEventSchema = defineEntity({
  name: 'SecurityEvent',
  tableName: 'security_event',
  indexes: [{ name: 'security_event_user_id_idx', properties: ['user', 'id'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    kind: p.string().length(32).$type<SecurityEventKind>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    address: p.string().length(64).nullable(),
    userAgent: p.string().length(512).nullable(),
  },
});

export class SecurityEvent extends SecurityEventSchema.class {
  toDto() {
    return { id: this.id, kind: this.kind, createdAt: this.createdAt.toISOString(), address: this.address ?? null, userAgent: this.userAgent ?? null };
  }
}
SecurityEventSchema.setClass(SecurityEvent);

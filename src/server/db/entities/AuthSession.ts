import { defineEntity, p } from '@mikro-orm/core';
import { User } from './User.js';

// A signed-in session. The cookie carries only a random token; the row's id is the
// token's SHA-256, so a database leak does not hand out usable cookies. Logout deletes the row.
export const AuthSessionSchema = defineEntity({
  name: 'AuthSession',
  tableName: 'auth_session',
  indexes: [{ name: 'auth_session_user_idx', properties: ['user'] }],
  properties: {
    id: p.string().length(64).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastSeenAt: p.datetime().onCreate(() => new Date()),
    // The absolute end; the idle timeout is counted from lastSeenAt.
    expiresAt: p.datetime(),
    userAgent: p.string().length(512).nullable(),
    address: p.string().length(64).nullable(),
  },
});

export class AuthSession extends AuthSessionSchema.class {}
AuthSessionSchema.setClass(AuthSession);

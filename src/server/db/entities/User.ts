import { defineEntity, p } from '@mikro-orm/core';

export const guestOrigins = ['demo', 'access-key'] as const;

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: {
    id: p.integer().primary().autoincrement(),
    username: p.string().length(64),
    // Usernames are unique regardless of case: 'Jane' and 'jane' are one account.
    usernameKey: p.string().length(64).unique(),
    passwordHash: p.string().length(255).nullable().hidden(),
    fullName: p.string().length(100),
    jobTitle: p.string().length(100).nullable(),
    company: p.string().length(100).nullable(),
    // The demo account, created at start in demo mode only (demoAccount.ts); found through a
    // partial index (app_user_demo_idx, in its migration).
    isDemo: p.boolean().default(false),
    // A demo visitor's private guest space (guestAccount.ts): no password, no integrations, deleted
    // after DEMO_GUEST_IDLE_HOURS unused; registering from it turns it into an account.
    isGuest: p.boolean().default(false),
    // Which way a guest came in: a demo visitor's space or the access-key gate. With demo mode off,
    // demo guests' sessions are ended at start (endDemoGuestSessions); access-key guests stay.
    guestOrigin: p.enum(guestOrigins).nullable(),
    // The Microsoft Entra ID account linked for 'Sign in with Microsoft': its tenant id and object
    // id name it (unique together, a partial index in its migration); the username only labels it.
    entraTenantId: p.string().length(64).nullable().hidden(),
    entraObjectId: p.string().length(64).nullable().hidden(),
    entraUsername: p.string().length(320).nullable().hidden(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class User extends UserSchema.class {
  toPublic() {
    return {
      id: this.id,
      username: this.username,
      fullName: this.fullName,
      jobTitle: this.jobTitle ?? null,
      company: this.company ?? null,
    };
  }
}
UserSchema.setClass(User);

export type PublicUser = ReturnType<User['toPublic']>;

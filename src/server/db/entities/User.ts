import { defineEntity, p } from '@mikro-orm/core';
import { organisationRoles } from '../../../shared/schemas/organisations.js';

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
    // The organisation the account belongs to: the deployment's one organisation (row 1, the
    // column's default), so every way an account is made joins it.
    organisationId: p.integer().default(1),
    // 'admin': may administer the organisation (members, seats, provisioning tokens), never read
    // anyone's conversations. Operators also name admins in ORG_ADMINS (roles.ts).
    orgRole: p.enum(organisationRoles).default('member'),
    // false once the identity provider deprovisioned the person: no session, key or socket acts as them.
    active: p.boolean().default(true),
    deprovisionedAt: p.datetime().nullable(),
    // The work address (from provisioning); a first Sign in with Microsoft with it finds this account.
    email: p.string().length(320).nullable(),
    // Provisioned by SCIM: its userName (unique in the organisation regardless of case, by
    // scimUserNameKey), its externalId (Entra's object id in the recommended mapping) and the
    // attributes kept as sent (name, emails, the enterprise extension's department and manager).
    scimUserName: p.string().length(320).nullable().hidden(),
    scimUserNameKey: p.string().length(320).nullable().hidden(),
    scimExternalId: p.string().length(320).nullable().hidden(),
    scimProfile: p.json<ScimProfile>().nullable().hidden(),
    // Invited by an admin's CSV (no password): the email is how their first Sign in with Microsoft
    // finds the account (microsoftSignIn.ts), as it finds one provisioning made.
    invitedAt: p.datetime().nullable(),
    // The last sign-in or use of a session (written at most hourly, sessionStore.ts): the member
    // list's invited (never) and inactive (30 days) states. Sessions are deleted when they end, so
    // the account keeps it.
    lastSeenAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/** What the identity provider (or an admin's CSV invite) said of a person besides the columns above (SCIM core and enterprise attributes). */
export type ScimProfile = {
  name?: { givenName?: string; familyName?: string; formatted?: string };
  displayName?: string;
  emails?: Array<{ value: string; type?: string; primary?: boolean }>;
  department?: string;
  manager?: string;
  /** When provisioning last changed the person (SCIM's meta.lastModified). */
  lastModified?: string;
};

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

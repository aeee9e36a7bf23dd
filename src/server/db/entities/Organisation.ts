import { defineEntity, p } from '@mikro-orm/core';
import type { NudgeChannel } from '../../../shared/schemas/nudges.js';
import { defaultOrgNudgeChannels, organisationRetentions } from '../../../shared/schemas/organisations.js';
import { User } from './User.js';

// The organisation a deployment serves. One row today (made by its migration, id 1): every account
// belongs to it. Kept as a table with an id on every user so that a hosted deployment can hold
// several later. `seats`: how many active members it may have (null: no limit); `retention`: what
// happens to a removed member's data (kept under the deactivated account, or deleted with it);
// `nudgeChannels`: the channels its members' nudges may use (app always among them); `phoneCalls`:
// whether the coach calls and answers calls at all; `modelRegion`: the OPENAI_REGIONS entry its
// members' coach answers from (null: OPENAI_BASE_URL).
export const OrganisationSchema = defineEntity({
  name: 'Organisation',
  tableName: 'organisation',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(200),
    seats: p.integer().nullable(),
    retention: p.enum(organisationRetentions).default('keep'),
    nudgeChannels: p.json<NudgeChannel[]>().onCreate(() => [...defaultOrgNudgeChannels]),
    phoneCalls: p.boolean().default(true),
    modelRegion: p.string().length(40).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class Organisation extends OrganisationSchema.class {}
OrganisationSchema.setClass(Organisation);

/** The deployment's one organisation (its migration makes it). */
export const deploymentOrganisationId = 1;

// A bearer token for the identity provider's provisioning (SCIM). Shown once at creation; the row
// keeps its SHA-256 (32 random bytes, so a fast hash is enough) and a prefix to tell tokens apart.
// Revoked tokens stay listed, marked, so an admin sees what was revoked when.
export const ScimTokenSchema = defineEntity({
  name: 'ScimToken',
  tableName: 'scim_token',
  uniques: [{ name: 'scim_token_token_hash_unique', properties: ['tokenHash'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    organisationId: p.integer(),
    prefix: p.string().length(16),
    tokenHash: p.string().length(64).hidden(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export class ScimToken extends ScimTokenSchema.class {
  toSummary() {
    return {
      id: this.id,
      prefix: this.prefix,
      createdAt: this.createdAt.toISOString(),
      lastUsedAt: this.lastUsedAt?.toISOString() ?? null,
      revokedAt: this.revokedAt?.toISOString() ?? null,
    };
  }
}
ScimTokenSchema.setClass(ScimToken);

// A group the identity provider provisions (SCIM Groups), and its members.
export const ScimGroupSchema = defineEntity({
  name: 'ScimGroup',
  tableName: 'scim_group',
  properties: {
    id: p.string().length(36).primary(),
    organisationId: p.integer(),
    displayName: p.string().length(256),
    externalId: p.string().length(320).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class ScimGroup extends ScimGroupSchema.class {}
ScimGroupSchema.setClass(ScimGroup);

export const ScimGroupMemberSchema = defineEntity({
  name: 'ScimGroupMember',
  tableName: 'scim_group_member',
  uniques: [{ name: 'scim_group_member_unique', properties: ['group', 'user'] }],
  indexes: [{ name: 'scim_group_member_user_idx', properties: ['user'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    group: () => p.manyToOne(ScimGroup).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
  },
});
export class ScimGroupMember extends ScimGroupMemberSchema.class {}
ScimGroupMemberSchema.setClass(ScimGroupMember);

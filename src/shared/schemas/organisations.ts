import { z } from 'zod';
import { organisationTexts } from '../texts/organisations.js';
import { nudgeChannels, type NudgeChannel } from './nudges.js';

// The organisation's administration (the admin procedures, /api/admin/*) and the bodies of SCIM 2.0
// provisioning (/scim/v2, RFC 7643 and 7644), as Entra ID's provisioning service sends them.

export const organisationRoles = ['member', 'admin'] as const;
export type OrganisationRole = (typeof organisationRoles)[number];
/** What a removed member's data becomes: kept under the deactivated account, or deleted with it. */
export const organisationRetentions = ['keep', 'delete'] as const;
export type OrganisationRetention = (typeof organisationRetentions)[number];

export const organisationLimits = { maxSeats: 1_000_000, maxScimTokens: 10, pageSizeMax: 200 } as const;

/** The channels an organisation lets nudges use (all by default). `app` is always among them: a nudge is written in the app. */
export const defaultOrgNudgeChannels: NudgeChannel[] = [...nudgeChannels];
/** A model region's name, as OPENAI_REGIONS names it (eu, us-east, ...). */
export const modelRegionNamePattern = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export const setMemberRoleSchema = z.object({
  userId: z.coerce.number().int().positive(),
  role: z.enum(organisationRoles, { message: organisationTexts.unknownRole }),
});
export type SetMemberRoleInput = z.infer<typeof setMemberRoleSchema>;

export const updateOrganisationSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  /** null: no seat limit. */
  seats: z.number().int().min(0).max(organisationLimits.maxSeats, organisationTexts.seatsRange).nullable().optional(),
  retention: z.enum(organisationRetentions, { message: organisationTexts.unknownRetention }).optional(),
  /** The channels nudges may use; `app` is kept whether listed or not. */
  nudgeChannels: z
    .array(z.enum(nudgeChannels, { message: organisationTexts.unknownNudgeChannel }), { message: organisationTexts.unknownNudgeChannel })
    .max(nudgeChannels.length * 2, organisationTexts.unknownNudgeChannel)
    .transform((list) => nudgeChannels.filter((channel) => channel === 'app' || list.includes(channel)))
    .optional(),
  phoneCalls: z.boolean({ message: organisationTexts.phoneCallsNotBoolean }).optional(),
  /** One of OPENAI_REGIONS' names (checked against the configuration by the server), or null: OPENAI_BASE_URL. */
  modelRegion: z.string({ message: organisationTexts.unknownModelRegion }).trim().toLowerCase().regex(modelRegionNamePattern, organisationTexts.unknownModelRegion).nullable().optional(),
});
export type UpdateOrganisationInput = z.infer<typeof updateOrganisationSchema>;

export const scimTokenIdSchema = z.object({ id: z.coerce.number().int().positive() });

// --- The console: audit log, CSV invites, member states ------------------------------------------

/**
 * What an admin (or the provisioning, by its token) did, as the audit log names it. Every admin
 * mutation declares one (`.meta({ audit })`); the adminProcedure middleware records it.
 */
export const adminAuditActions = [
  'organisation.update',
  'member.role',
  'scimToken.create',
  'scimToken.revoke',
  'members.invite',
  'scim.user.create',
  'scim.user.update',
  'scim.user.delete',
  'scim.group.create',
  'scim.group.update',
  'scim.group.delete',
  'program.create',
  'program.end',
] as const;
export type AdminAuditAction = (typeof adminAuditActions)[number];

export const adminAuditLimits = { defaultPage: 50, maxPage: 200 } as const;
export const listAdminAuditSchema = z
  .object({
    /** The `nextCursor` of the page before: older events. */
    cursor: z.coerce.number({ message: organisationTexts.badCursor }).int(organisationTexts.badCursor).positive(organisationTexts.badCursor).max(2_147_483_647, organisationTexts.badCursor).optional(),
    limit: z.coerce
      .number({ message: organisationTexts.badLimit })
      .int(organisationTexts.badLimit)
      .min(1, organisationTexts.badLimit)
      .max(adminAuditLimits.maxPage, organisationTexts.badLimit)
      .default(adminAuditLimits.defaultPage),
  })
  .default({ limit: adminAuditLimits.defaultPage });
export type ListAdminAuditInput = z.input<typeof listAdminAuditSchema>;

/** A member's state: invited (never signed in yet), active, inactive (no sign-in or request for 30 days), deprovisioned. */
export const memberStates = ['invited', 'active', 'inactive', 'deprovisioned'] as const;
export type MemberState = (typeof memberStates)[number];
export const inactiveAfterDays = 30;

/** CSV invites: the text of a CSV file (header row; email required; name, department, manager optional). */
export const inviteLimits = { maxRows: 1000, maxCsvChars: 512_000 } as const;
export const inviteColumns = ['email', 'name', 'department', 'manager'] as const;
export const inviteMembersSchema = z.object({
  csv: z.string({ message: organisationTexts.invite.csvRequired }).min(1, organisationTexts.invite.csvRequired).max(inviteLimits.maxCsvChars, organisationTexts.invite.tooLarge),
});
export type InviteMembersInput = z.infer<typeof inviteMembersSchema>;
/** One invite row's email, as a person types it. */
export const inviteEmailSchema = z.email({ message: organisationTexts.invite.badEmail }).max(320, organisationTexts.invite.badEmail);

// --- SCIM 2.0 --------------------------------------------------------------------------------

export const scimSchemas = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** SCIM's booleans as Entra sends them: true/false, or the strings "True"/"False". */
export const scimBooleanSchema = z.preprocess(
  (value) => (typeof value === 'string' && /^(true|false)$/i.test(value) ? value.toLowerCase() === 'true' : value),
  z.boolean({ message: organisationTexts.scim.notBoolean }),
);

const text = (max: number) => z.string().max(max);
const scimEmailSchema = z.looseObject({ value: text(320), type: text(40).optional(), primary: scimBooleanSchema.optional() });
const scimManagerSchema = z.union([z.looseObject({ value: text(320).nullish() }), text(320)]);

export const scimUserSchema = z.looseObject({
  schemas: z.array(text(200)).max(10).optional(),
  userName: z.string({ message: organisationTexts.scim.userNameRequired }).trim().min(1, organisationTexts.scim.userNameRequired).max(320),
  externalId: text(320).nullish(),
  name: z.looseObject({ givenName: text(100).nullish(), familyName: text(100).nullish(), formatted: text(256).nullish() }).nullish(),
  displayName: text(256).nullish(),
  emails: z.array(scimEmailSchema).max(10).nullish(),
  active: scimBooleanSchema.optional(),
  [scimSchemas.enterpriseUser]: z.looseObject({ department: text(256).nullish(), manager: scimManagerSchema.nullish() }).nullish(),
});
export type ScimUserInput = z.infer<typeof scimUserSchema>;

const scimMemberSchema = z.looseObject({ value: text(64), display: text(256).nullish() });
export const scimGroupSchema = z.looseObject({
  schemas: z.array(text(200)).max(10).optional(),
  displayName: z.string({ message: organisationTexts.scim.displayNameRequired }).trim().min(1, organisationTexts.scim.displayNameRequired).max(256),
  externalId: text(320).nullish(),
  members: z.array(scimMemberSchema).max(50_000).nullish(),
});
export type ScimGroupInput = z.infer<typeof scimGroupSchema>;

export const scimPatchSchema = z.object({
  schemas: z.array(text(200)).max(10).optional(),
  Operations: z
    .array(
      z.object({
        op: z.string().refine((op) => /^(add|remove|replace)$/i.test(op), organisationTexts.scim.unknownOp),
        path: text(1000).optional(),
        value: z.unknown().optional(),
      }),
    )
    .min(1, organisationTexts.scim.noOperations)
    .max(1000),
});
export type ScimPatchInput = z.infer<typeof scimPatchSchema>;

export const scimListQuerySchema = z.object({
  filter: text(1000).optional(),
  startIndex: z.coerce.number().int().optional(),
  count: z.coerce.number().int().optional(),
});

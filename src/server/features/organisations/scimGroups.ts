import crypto from 'node:crypto';
import { scimListQuerySchema, scimPatchSchema, scimSchemas, scimGroupSchema, type ScimGroupInput } from '../../../shared/schemas/organisations.js';
import { organisationTexts } from '../../../shared/texts/index.js';
import { ScimGroup, ScimGroupMember } from '../../db/entities/Organisation.js';
import { User } from '../../db/entities/User.js';
import { parseScimBody, type ScimAnswer, type ScimContext } from './scimContext.js';
import { ScimError } from './scimErrors.js';
import { filterQuery, page, type FilterAttributes, type FilterValue } from './scimFilter.js';
import { applyPatch } from './scimUsers.js';

// SCIM Groups (RFC 7643 section 4.2) and their members, who are the organisation's provisioned
// users (by their SCIM id). A PATCH (Entra adds and removes members one operation at a time) is
// applied by scim-patch to the group as SCIM shows it; the members are then set to the result.

type GroupWhere = Record<string, unknown>;
const asText = (value: FilterValue) => (value === null ? '' : String(value));
const likeExactly = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const groupAttributes: FilterAttributes<GroupWhere> = {
  displayname: (value) => ({ displayName: { $ilike: likeExactly(asText(value)) } }),
  externalid: (value) => ({ externalId: asText(value) }),
  id: (value) => ({ id: asText(value) }),
};

async function memberIds(ctx: ScimContext, groupId: string): Promise<number[]> {
  const rows = await ctx.em.find(ScimGroupMember, { group: groupId }, { fields: ['user'], orderBy: { id: 'asc' } });
  return rows.map((row) => (row.user as unknown as { id: number }).id);
}

function toScimGroup(group: ScimGroup, members: number[] | null, baseUrl: string) {
  return {
    schemas: [scimSchemas.group],
    id: group.id,
    ...(group.externalId ? { externalId: group.externalId } : {}),
    displayName: group.displayName,
    ...(members ? { members: members.map((id) => ({ value: String(id), $ref: `${baseUrl}/Users/${id}` })) } : {}),
    meta: { resourceType: 'Group', created: group.createdAt.toISOString(), lastModified: group.updatedAt.toISOString(), location: `${baseUrl}/Groups/${group.id}` },
  };
}

async function findGroup(ctx: ScimContext, id: string): Promise<ScimGroup> {
  const group = await ctx.em.findOne(ScimGroup, { id, organisationId: ctx.organisationId });
  if (!group) throw new ScimError(404, organisationTexts.scim.notFound('Group', id));
  return group;
}

const withoutMembers = (query: unknown) => {
  const excluded = (query as { excludedAttributes?: unknown }).excludedAttributes;
  return typeof excluded === 'string' && excluded.split(',').some((name) => name.trim().toLowerCase() === 'members');
};

export async function listGroups(ctx: ScimContext, query: Record<string, unknown>): Promise<ScimAnswer> {
  const params = parseScimBody(scimListQuerySchema, query);
  const filter = filterQuery(params.filter, groupAttributes);
  const base = { organisationId: ctx.organisationId };
  const { offset, limit, startIndex } = page(params);
  const [groups, total] = await ctx.em.findAndCount(ScimGroup, filter ? { $and: [base, filter] } : base, { orderBy: { createdAt: 'asc', id: 'asc' }, offset, limit });
  const skipMembers = withoutMembers(query);
  const resources = [];
  for (const group of groups) resources.push(toScimGroup(group, skipMembers ? null : await memberIds(ctx, group.id), ctx.baseUrl));
  return { status: 200, body: { schemas: [scimSchemas.listResponse], totalResults: total, startIndex, itemsPerPage: groups.length, Resources: resources } };
}

export async function getGroup(ctx: ScimContext, id: string, query: Record<string, unknown>): Promise<ScimAnswer> {
  const group = await findGroup(ctx, id);
  return { status: 200, body: toScimGroup(group, withoutMembers(query) ? null : await memberIds(ctx, group.id), ctx.baseUrl) };
}

/** The members a body names, each a provisioned user of the organisation (else 400 invalidValue). */
async function resolveMembers(ctx: ScimContext, input: ScimGroupInput): Promise<number[]> {
  const ids = [...new Set((input.members ?? []).map((member) => member.value))];
  const numeric = ids.filter((id) => /^\d{1,9}$/.test(id)).map(Number);
  const found = numeric.length ? await ctx.em.find(User, { id: { $in: numeric }, organisationId: ctx.organisationId, isGuest: false, isDemo: false }, { fields: ['id'] }) : [];
  const known = new Set(found.map((user) => user.id));
  const missing = ids.find((id) => !/^\d{1,9}$/.test(id) || !known.has(Number(id)));
  if (missing !== undefined) throw new ScimError(400, organisationTexts.scim.memberNotFound(missing.slice(0, 64)), 'invalidValue');
  return numeric;
}

async function setMembers(ctx: ScimContext, group: ScimGroup, wanted: number[]): Promise<void> {
  const current = new Set(await memberIds(ctx, group.id));
  const target = new Set(wanted);
  const gone = [...current].filter((id) => !target.has(id));
  if (gone.length) await ctx.em.nativeDelete(ScimGroupMember, { group: group.id, user: { $in: gone } });
  for (const id of wanted) if (!current.has(id)) ctx.em.create(ScimGroupMember, { group: group.id, user: id });
  await ctx.em.flush();
}

export async function createGroup(ctx: ScimContext, body: unknown): Promise<ScimAnswer> {
  const input = parseScimBody(scimGroupSchema, body);
  const members = await resolveMembers(ctx, input);
  const group = ctx.em.create(ScimGroup, { id: crypto.randomUUID(), organisationId: ctx.organisationId, displayName: input.displayName, externalId: input.externalId ?? null });
  await ctx.em.flush();
  await setMembers(ctx, group, members);
  const resource = toScimGroup(group, members, ctx.baseUrl);
  return { status: 201, body: resource, location: resource.meta.location };
}

async function saveGroup(ctx: ScimContext, group: ScimGroup, input: ScimGroupInput): Promise<ScimAnswer> {
  const members = await resolveMembers(ctx, input);
  ctx.em.assign(group, { displayName: input.displayName, externalId: input.externalId ?? null, updatedAt: new Date() });
  await ctx.em.flush();
  await setMembers(ctx, group, members);
  return { status: 200, body: toScimGroup(group, members, ctx.baseUrl) };
}

export async function replaceGroup(ctx: ScimContext, id: string, body: unknown): Promise<ScimAnswer> {
  const group = await findGroup(ctx, id);
  return saveGroup(ctx, group, parseScimBody(scimGroupSchema, body));
}

/** PATCH answers 204 (RFC 7644 section 3.5.2: the service provider may return no body), as Entra expects of groups. */
export async function patchGroup(ctx: ScimContext, id: string, body: unknown): Promise<ScimAnswer> {
  const patch = parseScimBody(scimPatchSchema, body);
  const group = await findGroup(ctx, id);
  const patched = applyPatch(toScimGroup(group, await memberIds(ctx, group.id), ctx.baseUrl), patch.Operations);
  await saveGroup(ctx, group, parseScimBody(scimGroupSchema, patched));
  return { status: 204 };
}

export async function deleteGroup(ctx: ScimContext, id: string): Promise<ScimAnswer> {
  const group = await findGroup(ctx, id);
  await ctx.em.nativeDelete(ScimGroupMember, { group: group.id });
  await ctx.em.nativeDelete(ScimGroup, { id: group.id });
  return { status: 204 };
}

import crypto from 'node:crypto';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { scimPatch, ScimError as PatchError, type ScimPatchOperation } from 'scim-patch';
import { limits } from '../../../shared/constants.js';
import { scimListQuerySchema, scimPatchSchema, scimSchemas, scimUserSchema, type ScimUserInput } from '../../../shared/schemas/organisations.js';
import { organisationTexts } from '../../../shared/texts/index.js';
import { User, type ScimProfile } from '../../db/entities/User.js';
import { deprovisionUser, reactivateUser, removeUser } from './deprovision.js';
import { organisationMadeAccount, withSeatCheck } from './organisation.js';
import { parseScimBody, type ScimAnswer, type ScimContext } from './scimContext.js';
import { ScimError } from './scimErrors.js';
import { filterQuery, page, type FilterAttributes, type FilterValue } from './scimFilter.js';

// SCIM Users (RFC 7643 section 4.1, the enterprise extension of 4.3) over the organisation's
// accounts. A user's SCIM id is the account's id. A provisioned account is one with a userName;
// one made by provisioning has no password and signs in with Microsoft (microsoftSignIn.ts finds
// it by externalId, userName or email on its first sign-in).

type UserWhere = Record<string, unknown>;
const asText = (value: FilterValue) => (value === null ? '' : String(value));
const userAttributes: FilterAttributes<UserWhere> = {
  username: (value) => ({ scimUserNameKey: asText(value).toLowerCase() }),
  externalid: (value) => ({ scimExternalId: asText(value) }),
  id: (value) => ({ id: /^\d{1,9}$/.test(asText(value)) ? Number(value) : -1 }),
  active: (value) => ({ active: value === true || asText(value).toLowerCase() === 'true' }),
  'emails.value': (value) => ({ email: asText(value).toLowerCase() }),
  emails: (value) => ({ email: asText(value).toLowerCase() }),
};

export function toScimUser(user: User, baseUrl: string) {
  const profile = user.scimProfile ?? {};
  const created = user.createdAt.toISOString();
  return {
    schemas: [scimSchemas.user, scimSchemas.enterpriseUser],
    id: String(user.id),
    ...(user.scimExternalId ? { externalId: user.scimExternalId } : {}),
    userName: user.scimUserName ?? user.username,
    ...(profile.name ? { name: profile.name } : {}),
    displayName: user.fullName,
    ...(profile.emails?.length ? { emails: profile.emails } : user.email ? { emails: [{ value: user.email, type: 'work', primary: true }] } : {}),
    active: user.active,
    [scimSchemas.enterpriseUser]: {
      ...(profile.department ? { department: profile.department } : {}),
      ...(profile.manager ? { manager: { value: profile.manager } } : {}),
    },
    meta: { resourceType: 'User', created, lastModified: profile.lastModified ?? created, location: `${baseUrl}/Users/${user.id}` },
  };
}

function provisioned(ctx: ScimContext): UserWhere {
  return { organisationId: ctx.organisationId, scimUserNameKey: { $ne: null }, isGuest: false, isDemo: false };
}

async function findUser(ctx: ScimContext, id: string): Promise<User> {
  const user = /^\d{1,9}$/.test(id) ? await ctx.em.findOne(User, { ...provisioned(ctx), id: Number(id) }) : null;
  if (!user) throw new ScimError(404, organisationTexts.scim.notFound('User', id));
  return user;
}

export async function listUsers(ctx: ScimContext, query: unknown): Promise<ScimAnswer> {
  const params = parseScimBody(scimListQuerySchema, query);
  const filter = filterQuery(params.filter, userAttributes);
  const where = filter ? { $and: [provisioned(ctx), filter] } : provisioned(ctx);
  const { offset, limit, startIndex } = page(params);
  const [users, total] = await ctx.em.findAndCount(User, where, { orderBy: { id: 'asc' }, offset, limit });
  return {
    status: 200,
    body: { schemas: [scimSchemas.listResponse], totalResults: total, startIndex, itemsPerPage: users.length, Resources: users.map((user) => toScimUser(user, ctx.baseUrl)) },
  };
}

export async function getUser(ctx: ScimContext, id: string): Promise<ScimAnswer> {
  return { status: 200, body: toScimUser(await findUser(ctx, id), ctx.baseUrl) };
}

/** What a SCIM body says of a person, as the account's columns. */
function accountFields(input: ScimUserInput) {
  const emails = (input.emails ?? []).map((email) => ({ value: email.value, ...(email.type ? { type: email.type } : {}), ...(email.primary !== undefined ? { primary: email.primary } : {}) }));
  const email = (emails.find((entry) => entry.primary) ?? emails[0])?.value.trim().toLowerCase() || null;
  const name = input.name ? Object.fromEntries(Object.entries({ givenName: input.name.givenName, familyName: input.name.familyName, formatted: input.name.formatted }).filter(([, value]) => typeof value === 'string' && value !== '')) : undefined;
  const enterprise = input[scimSchemas.enterpriseUser];
  const manager = typeof enterprise?.manager === 'string' ? enterprise.manager : (enterprise?.manager?.value ?? undefined);
  const fullName = (input.displayName || input.name?.formatted || [input.name?.givenName, input.name?.familyName].filter(Boolean).join(' ') || input.userName).slice(0, 100);
  const profile: ScimProfile = {
    ...(name && Object.keys(name).length ? { name } : {}),
    ...(emails.length ? { emails } : {}),
    ...(enterprise?.department ? { department: enterprise.department } : {}),
    ...(manager ? { manager } : {}),
    lastModified: new Date().toISOString(),
  };
  return { scimUserName: input.userName, scimUserNameKey: input.userName.toLowerCase(), scimExternalId: input.externalId ?? null, fullName, email, scimProfile: profile };
}

async function refuseTakenUserName(ctx: ScimContext, em: EntityManager, userNameKey: string, self?: number): Promise<void> {
  const other = await em.findOne(User, { organisationId: ctx.organisationId, scimUserNameKey: userNameKey, ...(self ? { id: { $ne: self } } : {}) }, { fields: ['id'] });
  if (other) throw userNameTaken(userNameKey);
}

const userNameTaken = (userName: string) => new ScimError(409, organisationTexts.scim.userNameTaken(userName), 'uniqueness');
const seatsTaken = (seats: number | null) => new ScimError(403, organisationTexts.scim.seatsTaken(seats ?? 0));

/** The app's username a userName (or an invite's email) asks for, before it is made unique. */
export function usernameOf(userName: string): string {
  const cleaned = userName.replace(/[^A-Za-z0-9._@-]/g, '').slice(0, limits.usernameMax);
  return cleaned.length >= limits.usernameMin ? cleaned : `scim-${crypto.randomBytes(4).toString('hex')}`;
}

/** A username for the app from the userName (a UPN such as jane@contoso.com), made unique when taken. */
export async function freeUsername(em: EntityManager, userName: string): Promise<{ username: string; usernameKey: string }> {
  const base = usernameOf(userName);
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const suffix = attempt === 0 ? '' : attempt < 6 ? `-${attempt + 1}` : `-${crypto.randomBytes(4).toString('hex')}`;
    const username = base.slice(0, limits.usernameMax - suffix.length) + suffix;
    if (!(await em.count(User, { usernameKey: username.toLowerCase() }))) return { username, usernameKey: username.toLowerCase() };
  }
  throw new Error('No free username for the provisioned user');
}

export async function createUser(ctx: ScimContext, body: unknown): Promise<ScimAnswer> {
  const input = parseScimBody(scimUserSchema, body);
  const fields = accountFields(input);
  const active = input.active ?? true;
  // Read before the organisation's lock (withSeatCheck), which only the seat count and the insert
  // need: every provisioning request of the organisation waits for it. A userName taken meanwhile
  // fails the insert on its unique index (409 below); an app username taken meanwhile is chosen
  // again.
  await refuseTakenUserName(ctx, ctx.em, fields.scimUserNameKey);
  for (let attempt = 1; ; attempt += 1) {
    const names = await freeUsername(ctx.em, input.userName);
    try {
      const user = await withSeatCheck(ctx.em, ctx.organisationId, async (tx, seat) => {
        if (active && !seat.ok) throw seatsTaken(seat.seats);
        const created = tx.create(User, {
          ...names,
          ...fields,
          organisationId: ctx.organisationId,
          ...organisationMadeAccount,
          active,
          deprovisionedAt: active ? null : new Date(),
        });
        await tx.flush();
        return created;
      });
      ctx.deps.log.info({ userId: user.id, organisationId: ctx.organisationId }, 'user provisioned');
      const resource = toScimUser(user, ctx.baseUrl);
      return { status: 201, body: resource, location: resource.meta.location };
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      if (/app_user_username_key/.test(error.message) && attempt < 3) continue;
      throw userNameTaken(fields.scimUserNameKey);
    }
  }
}

/** A replacement (PUT, or a PATCH's result): the fields, then the change of state it makes. */
async function saveUser(ctx: ScimContext, user: User, input: ScimUserInput): Promise<ScimAnswer> {
  const fields = accountFields(input);
  const active = input.active ?? user.active;
  try {
    if (active && !user.active) {
      await withSeatCheck(ctx.em, ctx.organisationId, async (tx, seat) => {
        await refuseTakenUserName(ctx, tx, fields.scimUserNameKey, user.id);
        if (!seat.ok) throw seatsTaken(seat.seats);
        const row = await tx.findOneOrFail(User, user.id);
        tx.assign(row, fields);
        await reactivateUser(tx, row);
      });
      await ctx.em.refresh(user);
    } else {
      await refuseTakenUserName(ctx, ctx.em, fields.scimUserNameKey, user.id);
      ctx.em.assign(user, fields);
      await ctx.em.flush();
      if (!active && user.active) await deprovisionUser(ctx.deps, ctx.em, user);
    }
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw userNameTaken(fields.scimUserNameKey);
    throw error;
  }
  return { status: 200, body: toScimUser(user, ctx.baseUrl) };
}

export async function replaceUser(ctx: ScimContext, id: string, body: unknown): Promise<ScimAnswer> {
  const user = await findUser(ctx, id);
  return saveUser(ctx, user, parseScimBody(scimUserSchema, body));
}

/** PATCH: the operations (scim-patch) applied to the user as SCIM shows it, the result saved as a replacement. */
export async function patchUser(ctx: ScimContext, id: string, body: unknown): Promise<ScimAnswer> {
  const patch = parseScimBody(scimPatchSchema, body);
  const user = await findUser(ctx, id);
  const patched = applyPatch(toScimUser(user, ctx.baseUrl), patch.Operations);
  return saveUser(ctx, user, parseScimBody(scimUserSchema, patched));
}

export function applyPatch<T extends { schemas: string[]; meta: { created: string; lastModified: string } }>(resource: T, operations: Array<{ op: string; path?: string | undefined; value?: unknown }>): T {
  // scim-patch's types want Dates in meta; it only carries them.
  const document = { ...resource, meta: { ...resource.meta, created: new Date(resource.meta.created), lastModified: new Date(resource.meta.lastModified) } };
  try {
    return scimPatch(document, operations as ScimPatchOperation[], { mutateDocument: false, treatMissingAsAdd: true }) as unknown as T;
  } catch (error) {
    if (error instanceof PatchError) {
      const scimType = error.scimCode === 'noTarget' ? 'noTarget' : error.scimCode === 'invalidPath' ? 'invalidPath' : 'invalidValue';
      throw new ScimError(400, organisationTexts.scim.invalidPatch(error.message.slice(0, 300)), scimType);
    }
    throw error;
  }
}

export async function deleteUser(ctx: ScimContext, id: string): Promise<ScimAnswer> {
  const user = await findUser(ctx, id);
  await removeUser(ctx.deps, ctx.em, user);
  return { status: 204 };
}

import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { UpdateOrganisationInput } from '../../../shared/schemas/organisations.js';
import { organisationTexts } from '../../../shared/texts/organisations.js';
import type { ModelRegion } from '../../config.js';
import { deploymentOrganisationId, Organisation } from '../../db/entities/Organisation.js';
import { User } from '../../db/entities/User.js';
import type { AuthedContext } from '../../trpc/context.js';
import type { AdminContext } from './audit.js';

// The organisation's settings and its seats. A seat is taken by every active member (a registered
// account, provisioned or not, that is neither a guest space nor the demo account); a
// deprovisioned member frees theirs.

/**
 * The deployment's organisation, made at the first start (its migration makes it only for a
 * database that already holds accounts, so that a new database stays empty for `db:move`).
 */
export async function ensureDeploymentOrganisation(orm: MikroORM): Promise<void> {
  await orm.em.fork().getConnection().execute(
    `insert into "organisation" ("id", "name", "created_at") values (?, 'Organisation', now()) on conflict ("id") do nothing`,
    [deploymentOrganisationId],
  );
  await orm.em.fork().getConnection().execute(`select setval(pg_get_serial_sequence('organisation', 'id'), greatest((select max("id") from "organisation"), 1))`);
}

export async function seatsInUse(em: EntityManager, organisationId: number): Promise<number> {
  return em.count(User, { organisationId, active: true, isGuest: false, isDemo: false });
}

/**
 * Whether one more active member fits the seats, read without a lock: registration and a first Sign
 * in with Microsoft refuse early with it, then count again under the lock as they write the account
 * (withSeatCheck), as provisioning (SCIM) does.
 */
export async function hasFreeSeat(em: EntityManager, organisationId: number): Promise<boolean> {
  const organisation = await em.findOne(Organisation, organisationId);
  const seats = organisation?.seats ?? null;
  return seats === null || (await seatsInUse(em, organisationId)) < seats;
}

/**
 * Runs `work` with the organisation's row locked, after checking a seat is free for one more active
 * member: parallel provisioning cannot pass the count. `free` is false when every seat is taken.
 * Every provisioning request of the organisation waits for this lock (bench/results/scim.md), so
 * little runs under it: the lock, the count (none when the seats have no limit) and `work`, which
 * should be the insert only. The count is its own statement after the lock: a statement's snapshot
 * is taken when it starts, so a count in the locking statement would miss the rows committed while
 * it waited (and let parallel requests pass the seats; test/server/scim.test.ts).
 */
export async function withSeatCheck<T>(em: EntityManager, organisationId: number, work: (tx: EntityManager, free: { ok: boolean; seats: number | null }) => Promise<T>): Promise<T> {
  return em.transactional(async (tx) => {
    const sql = (query: string) => tx.getConnection().execute(query, [organisationId], 'all', tx.getTransactionContext()) as Promise<Array<Record<string, unknown>>>;
    const [row] = await sql(`select "seats" from "organisation" where "id" = ? for update`);
    if (!row) throw new Error(`No organisation ${organisationId}`);
    const seats = row.seats === null || row.seats === undefined ? null : Number(row.seats);
    if (seats === null) return work(tx, { ok: true, seats });
    const [count] = await sql(`select count(*)::int as "used" from "app_user" where "organisation_id" = ? and "active" and not "is_guest" and not "is_demo"`);
    return work(tx, { ok: Number(count?.used ?? 0) < seats, seats });
  });
}

/**
 * The organisation's settings. `modelRegion` and `modelRegions` (the names the server is set up
 * with) only when OPENAI_REGIONS is set: otherwise there is nothing to choose.
 */
/**
 * What every account an organisation makes for a person (provisioning, a CSV invite) starts with:
 * no password (they sign in with Microsoft), none of the profile they fill in themselves, a member.
 */
export const organisationMadeAccount = { passwordHash: null, jobTitle: null, company: null, isDemo: false, isGuest: false, guestOrigin: null } as const;

export function organisationView(organisation: Organisation, used: number, regions: ModelRegion[]) {
  return {
    id: organisation.id,
    name: organisation.name,
    seats: organisation.seats ?? null,
    seatsInUse: used,
    retention: organisation.retention,
    nudgeChannels: organisation.nudgeChannels,
    phoneCalls: organisation.phoneCalls,
    ...(regions.length ? { modelRegion: organisation.modelRegion ?? null, modelRegions: regions.map((region) => region.name) } : {}),
  };
}
export type OrganisationView = ReturnType<typeof organisationView>;

export async function getOrganisation(ctx: AuthedContext): Promise<OrganisationView> {
  const organisation = await ctx.em.findOneOrFail(Organisation, ctx.user.organisationId);
  return organisationView(organisation, await seatsInUse(ctx.em, organisation.id), ctx.deps.config.openai.regions);
}

/** Seats may be set below the seats in use: nobody is removed, but nobody more is provisioned active. */
export async function updateOrganisation(ctx: AdminContext, input: UpdateOrganisationInput): Promise<OrganisationView> {
  const organisation = await ctx.em.findOneOrFail(Organisation, ctx.user.organisationId);
  const changes: Record<string, unknown> = {};
  for (const field of ['name', 'seats', 'retention'] as const) {
    if (input[field] === undefined || input[field] === organisation[field]) continue;
    changes[field] = input[field];
    changes[`${field}Before`] = organisation[field] ?? null;
  }
  ctx.audit.note({ target: organisation.name, changes });
  if (input.name !== undefined) organisation.name = input.name;
  if (input.seats !== undefined) organisation.seats = input.seats;
  if (input.retention !== undefined) organisation.retention = input.retention;
  if (input.nudgeChannels !== undefined) organisation.nudgeChannels = input.nudgeChannels;
  if (input.phoneCalls !== undefined) organisation.phoneCalls = input.phoneCalls;
  if (input.modelRegion !== undefined) {
    const regions = ctx.deps.config.openai.regions;
    // Only a region the server is set up with (OPENAI_REGIONS); null is the default, OPENAI_BASE_URL.
    if (input.modelRegion !== null && !regions.some((region) => region.name === input.modelRegion)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: organisationTexts.modelRegionNotConfigured(input.modelRegion, regions.map((region) => region.name)) });
    }
    organisation.modelRegion = input.modelRegion;
  }
  await ctx.em.flush();
  ctx.deps.log.info(
    { organisationId: organisation.id, by: ctx.user.id, seats: organisation.seats, retention: organisation.retention, nudgeChannels: organisation.nudgeChannels, phoneCalls: organisation.phoneCalls, modelRegion: organisation.modelRegion ?? null },
    'organisation settings changed',
  );
  return organisationView(organisation, await seatsInUse(ctx.em, organisation.id), ctx.deps.config.openai.regions);
}

import type { EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { Figure } from '../../../shared/schemas/analytics.js';
import { programLimits, type CreateProgramInput } from '../../../shared/schemas/programs.js';
import { programTexts } from '../../../shared/texts/index.js';
import { ScimGroup } from '../../db/entities/Organisation.js';
import { Program, ProgramSetting } from '../../db/entities/Program.js';
import type { AuthedContext } from '../../trpc/context.js';
import type { AdminContext } from './audit.js';
import { NudgeRun } from '../../db/entities/Nudge.js';
import { breakdownIsSafe, lastWeeks, minGroupOf, partitions, populationSql, sqlOf, twoGroups } from './analytics.js';

// Coaching programs: an admin starts one for a group (a provisioned group or a department) with a
// focus the coach knows while it runs (loadCoachProgram), nudges at a cadence (planProgramNudges,
// in the nudges' planning), and its progress counted as the analytics are: by calendar week, each
// figure over at least the privacy floor's people, and none at all when the program's group could
// be worked out from the organisation's figures (it, or the rest beside it, is under the floor, or
// it differs from a department, a manager's team or another program's members by fewer).

const dayMs = 86_400_000;
const today = (now: Date) => now.toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.floor((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs);

export type ProgramState = 'upcoming' | 'running' | 'over' | 'ended';

/** Which week of the program a day falls in (1 on its first day; 0 before it; past `weeks` after it). */
export function programWeek(program: Pick<Program, 'startsOn'>, now: Date): number {
  const days = daysBetween(program.startsOn, today(now));
  return days < 0 ? 0 : Math.floor(days / 7) + 1;
}

export function programState(program: Pick<Program, 'startsOn' | 'weeks' | 'endedAt'>, now: Date): ProgramState {
  if (program.endedAt) return 'ended';
  const week = programWeek(program, now);
  return week === 0 ? 'upcoming' : week > program.weeks ? 'over' : 'running';
}

/** The members a program is for, now: the active members of its group or department. */
export async function programMembers(em: EntityManager, program: Pick<Program, 'organisationId' | 'department'> & { group?: { id: string } | null }): Promise<number[]> {
  const groupId = program.group?.id ?? null;
  const rows: Array<{ id: number }> = await sqlOf(em)(
    `select u."id" from "app_user" u
     where ${populationSql} and u."active"
       and ((?::text is not null and exists (select 1 from "scim_group_member" m where m."user_id" = u."id" and m."group_id" = ?))
         or (?::text is not null and lower(trim(u."scim_profile"->>'department')) = lower(?)))
     order by u."id"`,
    [program.organisationId, groupId, groupId, program.department ?? null, program.department ?? null],
  );
  return rows.map((row) => row.id);
}

type ProgressWeek = { week: number; weekOf: string; active: Figure; sessions: Figure; goalsSet: Figure };

/**
 * Whether two programs' members differ by a handful: one's members all in the other, and fewer
 * than the floor's people more in it (their figures' difference would be that handful's).
 */
export function nestedBySmallDifference(a: ReadonlySet<number>, b: ReadonlySet<number>, minGroup: number): boolean {
  const [inner, outer] = a.size <= b.size ? [a, b] : [b, a];
  const difference = outer.size - inner.size;
  if (difference === 0 || difference >= minGroup) return false;
  for (const member of inner) if (!outer.has(member)) return false;
  return true;
}

/**
 * The program's figures by week so far, or null when showing them could single someone out: beside
 * the rest of the organisation, a department or a manager's team, or another program's members.
 */
async function programProgress(ctx: AuthedContext, program: Program, members: number[], others: ReadonlyArray<ReadonlySet<number>>, now: Date): Promise<ProgressWeek[] | null> {
  const minGroup = minGroupOf(ctx);
  const memberSet = new Set(members);
  const { department: departments, manager: managers } = await partitions(ctx.em, program.organisationId, minGroup);
  const asked = twoGroups(departments, memberSet);
  const population = departments.groupOfMember.size;
  if (memberSet.size < minGroup || !breakdownIsSafe(asked, departments, population, minGroup) || !breakdownIsSafe(asked, managers, population, minGroup)) return null;
  if (others.some((other) => nestedBySmallDifference(memberSet, other, minGroup))) return null;
  const last = Math.min(programWeek(program, program.endedAt ?? now), program.weeks);
  if (last < 1) return [];
  // Calendar weeks (Mondays): the week of the first day is the program's week 1.
  const all = lastWeeks(new Date(Date.parse(`${program.startsOn}T00:00:00Z`) + (last - 1) * 7 * dayMs), last);
  const ids = `{${members.join(',')}}`;
  const connection = { execute: sqlOf(ctx.em) };
  const [activity, goals]: Array<Array<{ week: string; people: number | string; value: number | string }>> = await Promise.all([
    connection.execute(
      `select to_char(a."week", 'YYYY-MM-DD') as "week", count(*) as "people",
         coalesce(sum(a."chat_sessions" + a."voice_sessions" + a."phone_sessions" + a."rehearsal_sessions" + a."debrief_sessions"), 0) as "value"
       from "coaching_activity" a where a."user_id" = any(?::int[]) and a."week" >= ?::date group by 1`,
      [ids, all[0]!],
    ),
    connection.execute(
      `select to_char(date_trunc('week', g."created_at" at time zone 'UTC'), 'YYYY-MM-DD') as "week", count(distinct g."owner_id") as "people", count(*) as "value"
       from "goal" g where g."owner_id" = any(?::int[]) and not g."is_sample" and g."created_at" >= ?::date group by 1`,
      [ids, all[0]!],
    ),
  ]);
  const byWeek = (rows: typeof activity) => new Map(rows.map((row) => [row.week, { people: Number(row.people), value: Number(row.value) }]));
  const active = byWeek(activity);
  const set = byWeek(goals);
  const figure = (people: number, value: number): Figure => (people >= minGroup ? { value } : { hidden: 'small' });
  return all.map((weekOf, index) => {
    const coached = active.get(weekOf) ?? { people: 0, value: 0 };
    const goals = set.get(weekOf) ?? { people: 0, value: 0 };
    return { week: index + 1, weekOf, active: figure(coached.people, coached.people), sessions: figure(coached.people, coached.value), goalsSet: figure(goals.people, goals.value) };
  });
}

/** The members of each of the organisation's programs (the last 200, as the list shows). */
async function membersOfPrograms(ctx: AuthedContext, programs: Program[]): Promise<Map<number, number[]>> {
  return new Map(await Promise.all(programs.map(async (program) => [program.id, await programMembers(ctx.em, program)] as const)));
}

const recentPrograms = (ctx: AuthedContext) => ctx.em.find(Program, { organisationId: ctx.user.organisationId }, { populate: ['group'], orderBy: { id: 'desc' }, limit: 200 });

/** A program as the console shows it; `membersOf` holds the members of every program compared with it. */
async function programView(ctx: AuthedContext, program: Program, now: Date, membersOf?: Map<number, number[]>) {
  const known = membersOf ?? (await membersOfPrograms(ctx, [...(await recentPrograms(ctx)).filter((other) => other.id !== program.id), program]));
  const members = known.get(program.id) ?? (await programMembers(ctx.em, program));
  const others = [...known].filter(([id]) => id !== program.id).map(([, ids]) => new Set(ids));
  const state = programState(program, now);
  return {
    id: program.id,
    name: program.name,
    focus: program.focus,
    group: program.group ? { id: program.group.id, name: program.group.displayName } : null,
    department: program.department ?? null,
    weeks: program.weeks,
    cadence: program.cadence,
    startsOn: program.startsOn,
    endedAt: program.endedAt?.toISOString() ?? null,
    state,
    week: state === 'running' ? programWeek(program, now) : null,
    /** How many members it is for now (the organisation's own list, as the members page shows). */
    members: members.length,
    /** Null: not shown, so no small group can be worked out (programTexts.progressRefused). */
    progress: await programProgress(ctx, program, members, others, now),
  };
}
export type ProgramView = Awaited<ReturnType<typeof programView>>;

export async function listPrograms(ctx: AuthedContext, now = new Date()): Promise<{ programs: ProgramView[]; groups: Array<{ id: string; name: string }>; departments: string[] }> {
  const programs = await recentPrograms(ctx);
  const membersOf = await membersOfPrograms(ctx, programs);
  const groups = await ctx.em.find(ScimGroup, { organisationId: ctx.user.organisationId }, { orderBy: { displayName: 'asc' }, limit: 1000 });
  const departments: Array<{ name: string }> = await sqlOf(ctx.em)(`select distinct trim(u."scim_profile"->>'department') as "name" from "app_user" u where ${populationSql} and u."active" and nullif(trim(u."scim_profile"->>'department'), '') is not null order by 1 limit 1000`, [ctx.user.organisationId]);
  return {
    programs: await Promise.all(programs.map((program) => programView(ctx, program, now, membersOf))),
    groups: groups.map((group) => ({ id: group.id, name: group.displayName })),
    departments: departments.map((row) => row.name),
  };
}

export async function createProgram(ctx: AdminContext, input: CreateProgramInput, now = new Date()): Promise<ProgramView> {
  const organisationId = ctx.user.organisationId;
  const running = await ctx.em.count(Program, { organisationId, endedAt: null });
  if (running >= programLimits.maxPrograms) throw new TRPCError({ code: 'CONFLICT', message: programTexts.tooMany });
  let group: ScimGroup | null = null;
  if (input.groupId !== undefined) {
    group = await ctx.em.findOne(ScimGroup, { id: input.groupId, organisationId });
    if (!group) throw new TRPCError({ code: 'NOT_FOUND', message: programTexts.groupNotFound });
  }
  const department = input.department?.trim() ?? null;
  if (department !== null && !(await programMembers(ctx.em, { organisationId, department })).length) {
    throw new TRPCError({ code: 'NOT_FOUND', message: programTexts.departmentNotFound });
  }
  const program = ctx.em.create(Program, {
    organisationId,
    name: input.name.trim(),
    focus: input.focus.trim(),
    group,
    department,
    weeks: Number(input.weeks),
    cadence: input.cadence ?? 'weekly',
    startsOn: input.startsOn ?? today(now),
    createdBy: ctx.user.id,
    createdAt: now,
  });
  await ctx.em.flush();
  ctx.audit.note({ target: `#${program.id} ${program.name}`, changes: { weeks: program.weeks, cadence: program.cadence, startsOn: program.startsOn, group: group?.displayName ?? null, department } });
  ctx.deps.log.info({ programId: program.id, by: ctx.user.id }, 'program started');
  return programView(ctx, program, now);
}

export async function endProgram(ctx: AdminContext, input: { id: number }, now = new Date()): Promise<ProgramView> {
  const program = await ctx.em.findOne(Program, { id: input.id, organisationId: ctx.user.organisationId }, { populate: ['group'] });
  if (!program) throw new TRPCError({ code: 'NOT_FOUND', message: programTexts.notFound });
  if (program.endedAt) throw new TRPCError({ code: 'CONFLICT', message: programTexts.alreadyEnded });
  program.endedAt = now;
  await ctx.em.flush();
  // Its nudges still waiting are not sent.
  await ctx.em.nativeUpdate(NudgeRun, { kind: 'program', status: 'queued', eventId: { $like: `program:${program.id}:%` } }, { status: 'skipped', reason: programTexts.ended, updatedAt: now });
  ctx.audit.note({ target: `#${program.id} ${program.name}` });
  ctx.deps.log.info({ programId: program.id, by: ctx.user.id }, 'program ended');
  return programView(ctx, program, now);
}

/** The program a member is in now, for the coach: the newest running one. */
export async function loadCoachProgram(em: EntityManager, userId: number, now = new Date()): Promise<{ name: string; focus: string; week: number; weeks: number } | null> {
  const day = today(now);
  const rows: Array<{ name: string; focus: string; starts_on: string; weeks: number }> = await sqlOf(em)(
    `select p."name", p."focus", to_char(p."starts_on", 'YYYY-MM-DD') as "starts_on", p."weeks" from "program" p join "app_user" u on u."id" = ? and u."organisation_id" = p."organisation_id"
     where p."ended_at" is null and p."starts_on" <= ?::date and p."starts_on" + p."weeks" * 7 > ?::date and u."active" and not u."is_guest" and not u."is_demo"
       and ((p."group_id" is not null and exists (select 1 from "scim_group_member" m where m."group_id" = p."group_id" and m."user_id" = u."id"))
         or (p."department" is not null and lower(trim(u."scim_profile"->>'department')) = lower(p."department")))
     order by p."id" desc limit 1`,
    [userId, day, day],
  );
  const row = rows[0];
  if (!row) return null;
  return { name: row.name, focus: row.focus, week: programWeek({ startsOn: row.starts_on }, now), weeks: row.weeks };
}

/** Whether week `week` of a program brings a nudge at its cadence (fortnightly: weeks 1, 3, 5, ...). */
export const nudgeWeek = (cadence: Program['cadence'], week: number) => cadence === 'weekly' || (cadence === 'fortnightly' && week % 2 === 1);

/** The event id of a member's nudge for a program's week: one each, however often planning runs. */
export const programNudgeEvent = (programId: number, week: number) => `program:${programId}:${week}`;

/**
 * The program nudges due now: for each running program whose current week brings one, its
 * members who have not turned program nudges off.
 */
export async function dueProgramNudges(em: EntityManager, now: Date): Promise<Array<{ event: string; title: string; members: number[] }>> {
  const day = today(now);
  const programs = await em.find(Program, { endedAt: null, cadence: { $ne: 'off' }, startsOn: { $lte: day } }, { populate: ['group'], limit: 1000 });
  const due: Array<{ event: string; title: string; members: number[] }> = [];
  for (const program of programs) {
    const week = programWeek(program, now);
    if (week < 1 || week > program.weeks || !nudgeWeek(program.cadence, week)) continue;
    const members = await programMembers(em, program);
    if (!members.length) continue;
    const off: Array<{ owner_id: number }> = await sqlOf(em)(`select "owner_id" from "program_setting" where not "nudges" and "owner_id" = any(?::int[])`, [`{${members.join(',')}}`]);
    const muted = new Set(off.map((row) => row.owner_id));
    due.push({ event: programNudgeEvent(program.id, week), title: programTexts.nudgeTitle(program.name, week, program.weeks), members: members.filter((id) => !muted.has(id)) });
  }
  return due;
}

/**
 * What a program's nudge says when it comes due, or null when it no longer should be sent (the
 * program ended or is over, the person left its group, or turned program nudges off).
 */
export async function programNudgeContent(em: EntityManager, userId: number, event: string | null | undefined, now: Date): Promise<{ title: string; content: string } | null> {
  const match = /^program:(\d{1,9}):(\d{1,2})$/.exec(event ?? '');
  if (!match) return null;
  const program = await em.findOne(Program, { id: Number(match[1]) }, { populate: ['group'] });
  const week = Number(match[2]);
  if (!program || programState(program, now) !== 'running') return null;
  if (!(await programMembers(em, program)).includes(userId)) return null;
  const setting = await em.findOne(ProgramSetting, { owner: userId });
  if (setting && !setting.nudges) return null;
  return { title: programTexts.nudgeTitle(program.name, week, program.weeks), content: programTexts.nudgeBody(program.name, week, program.weeks, program.focus) };
}

/** The nudge email's link: program nudges off for this person (queued ones skipped by the run). */
export async function turnProgramNudgesOff(em: EntityManager, userId: number): Promise<boolean> {
  const row = await em.findOne(ProgramSetting, { owner: userId });
  if (row) row.nudges = false;
  else {
    const exists = await sqlOf(em)(`select 1 from "app_user" where "id" = ?`, [userId]);
    if (!exists.length) return false;
    em.create(ProgramSetting, { owner: userId, nudges: false });
  }
  await em.flush();
  return true;
}

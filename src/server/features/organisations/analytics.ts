import type { EntityManager } from '@mikro-orm/core';
import crypto from 'node:crypto';
import { TRPCError } from '@trpc/server';
import {
  analyticsLimits,
  coachingFrameworks,
  coachingThemes,
  labelBit,
  sessionKinds,
  type AnalyticsAnswer,
  type AnalyticsGroup,
  type AnalyticsGrouping,
  type AnalyticsQuery,
  type Figure,
  type SessionKind,
  type WeekFigures,
} from '../../../shared/schemas/analytics.js';
import { organisationTexts } from '../../../shared/texts/index.js';
import type { AuthedContext } from '../../trpc/context.js';
import { seatsInUse } from './organisation.js';

// The organisation's analytics: how coaching is used, never what anyone said. Read from three
// places only: coaching_activity (a member's sessions by kind and the coach's labels, by week),
// the goals' frameworks and dates, and the members' departments and managers from provisioning.
//
// The privacy floor (ORG_ANALYTICS_MIN_GROUP, at least 3): every number is counted over at least
// that many people, else it is hidden ('small'). A breakdown by department or manager adds two
// rules, so that no group under the floor can be read as the difference of larger ones:
// - its groups: a group with fewer members than the floor joins 'Other'; a breakdown whose 'Other'
//   is still under the floor, or with a group that differs by fewer than the floor from a group of
//   the other breakdown or from the whole organisation, is refused (422);
// - its figures: where a week's group figures sit beside the organisation's figure they add up to,
//   the hidden ones must together count at least the floor's people, else the smallest shown one
//   is withheld too (the sum of the hidden ones is then over a large enough group).
// Figures are by week (a week's figure is the same in every answer), and frameworks and themes
// are over the last 12 weeks, for the organisation only.

/**
 * Raw SQL on `em`, in its transaction when it has one (an admin mutation runs in one: a query
 * beside it would wait for the connection the transaction holds, on PGlite's single one).
 */
// biome-ignore lint/suspicious/noExplicitAny: rows are typed where they are read
export const sqlOf = (em: EntityManager) => (sql: string, params: unknown[]): Promise<any[]> => em.getConnection().execute(sql, params, 'all', em.getTransactionContext());

type Cell = { people: number; value: number };
type WeekCells = { active: Cell; sessions: Record<SessionKind, Cell>; goalsSet: Cell; goalsCompleted: Cell };
type Metric = { get(cells: WeekCells): Cell };

const metrics: Metric[] = [
  { get: (cells) => cells.active },
  ...sessionKinds.map((kind) => ({ get: (cells: WeekCells) => cells.sessions[kind] })),
  { get: (cells) => cells.goalsSet },
  { get: (cells) => cells.goalsCompleted },
];

const emptyCell = (): Cell => ({ people: 0, value: 0 });
const emptyWeek = (): WeekCells => ({
  active: emptyCell(),
  sessions: Object.fromEntries(sessionKinds.map((kind) => [kind, emptyCell()])) as Record<SessionKind, Cell>,
  goalsSet: emptyCell(),
  goalsCompleted: emptyCell(),
});

/** The Mondays (UTC) of the last `count` weeks, oldest first, the current week last. */
export function lastWeeks(now: Date, count: number): string[] {
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return Array.from({ length: count }, (_, index) => {
    const day = new Date(monday);
    day.setUTCDate(monday.getUTCDate() - 7 * (count - 1 - index));
    return day.toISOString().slice(0, 10);
  });
}

/** How a member's group is read from the account, in SQL (null: the identity provider names none). */
const groupKeySql: Record<AnalyticsGrouping, string> = {
  department: `nullif(trim(u."scim_profile"->>'department'), '')`,
  manager: `nullif(trim(u."scim_profile"->>'manager'), '')`,
};

/** The members an analysis is over: the organisation's accounts (inactive ones' past coaching still counts). */
export const populationSql = `u."organisation_id" = ? and not u."is_guest" and not u."is_demo"`;

export type Partition = {
  /** The key of each group after merging (null key: no department; 'other': the small ones). */
  groups: Map<string, { name: string | null; kind: 'group' | 'other'; size: number }>;
  /** Which merged group each member falls in. */
  groupOfMember: Map<number, string>;
};

const rawKey = (key: string | null) => (key === null ? '\u0000none' : `k:${key}`);
const otherKey = '\u0000other';

/** The members' partition by `by`, from each member's raw group key. */
function partitionOf(rows: Array<{ id: number; key: string | null }>, minGroup: number): Partition {
  const sizes = new Map<string, { key: string | null; size: number }>();
  for (const row of rows) {
    const key = rawKey(row.key);
    const entry = sizes.get(key) ?? { key: row.key, size: 0 };
    entry.size += 1;
    sizes.set(key, entry);
  }
  const groups: Partition['groups'] = new Map();
  const groupOfKey = new Map<string, string>();
  for (const [key, { key: name, size }] of sizes) {
    const into = size >= minGroup ? key : otherKey;
    groupOfKey.set(key, into);
    const group = groups.get(into) ?? { name: into === otherKey ? null : name, kind: into === otherKey ? ('other' as const) : ('group' as const), size: 0 };
    group.size += size;
    groups.set(into, group);
  }
  const groupOfMember = new Map(rows.map((row) => [row.id, groupOfKey.get(rawKey(row.key))!]));
  return { groups, groupOfMember };
}

/** The organisation's members partitioned by department and by manager (one read of the accounts). */
export async function partitions(em: EntityManager, organisationId: number, minGroup: number): Promise<Record<AnalyticsGrouping, Partition>> {
  const rows: Array<{ id: number; department: string | null; manager: string | null }> = await sqlOf(em)(
    `select u."id", ${groupKeySql.department} as "department", ${groupKeySql.manager} as "manager" from "app_user" u where ${populationSql}`,
    [organisationId],
  );
  return {
    department: partitionOf(rows.map((row) => ({ id: row.id, key: row.department })), minGroup),
    manager: partitionOf(rows.map((row) => ({ id: row.id, key: row.manager })), minGroup),
  };
}

/** Whether every group of a breakdown, and what is left beside each, has at least the floor's people. */
function groupsShowable(partition: Partition, population: number, minGroup: number): boolean {
  for (const group of partition.groups.values()) {
    if (group.size < minGroup || (population - group.size > 0 && population - group.size < minGroup)) return false;
  }
  return true;
}

/**
 * Whether a breakdown may be shown: every group at least the floor, and no group that differs from
 * a group of the other breakdown, or from the whole organisation, by fewer than the floor's people
 * (the other breakdown counts only when it can be shown itself: a refused one publishes no group).
 */
export function breakdownIsSafe(asked: Partition, other: Partition, population: number, minGroup: number): boolean {
  const small = (difference: number) => difference > 0 && difference < minGroup;
  if (!groupsShowable(asked, population, minGroup)) return false;
  if (!groupsShowable(other, population, minGroup)) return true;
  // One group inside another (all its members in one group of the other breakdown), or holding one.
  const nested = (inner: Partition, outer: Partition) => {
    const homes = new Map<string, Set<string>>();
    for (const [member, group] of inner.groupOfMember) {
      const home = homes.get(group) ?? new Set<string>();
      home.add(outer.groupOfMember.get(member)!);
      homes.set(group, home);
    }
    for (const [group, home] of homes) {
      if (home.size !== 1) continue;
      const outerGroup = outer.groups.get([...home][0]!)!;
      if (small(outerGroup.size - inner.groups.get(group)!.size)) return true;
    }
    return false;
  };
  return !nested(asked, other) && !nested(other, asked);
}

type WeekRow = { week: string } & Record<string, string | number | null>;

const kindColumns = sessionKinds
  .map((kind) => `(count(*) filter (where a."${kind}_sessions" > 0))::int as "${kind}_people", (coalesce(sum(a."${kind}_sessions"), 0))::int as "${kind}_value"`)
  .join(', ');

const kindFields = sessionKinds.map((kind) => ({ kind, people: `${kind}_people`, value: `${kind}_value` }));

/** A row of activity, its kinds' people and sessions read into cells. */
function readActivity(cells: WeekCells, row: WeekRow) {
  cells.active = { people: Number(row.active), value: Number(row.active) };
  for (const field of kindFields) cells.sessions[field.kind] = { people: Number(row[field.people]), value: Number(row[field.value]) };
}

/** The whole organisation's cells of each week from `from` on (only members have activity rows: no join). */
async function weeklyCells(em: EntityManager, organisationId: number, from: string): Promise<Map<string, WeekCells>> {
  const execute = sqlOf(em);
  const [activity, goals]: WeekRow[][] = await Promise.all([
    execute(
      `select a."week"::text as "week", count(*)::int as "active", ${kindColumns}
       from "coaching_activity" a where a."organisation_id" = ? and a."week" >= ?::date group by a."week"`,
      [organisationId, from],
    ),
    execute(goalWeeksSql(`with m as materialized (select u."id", 0 as "g" from "app_user" u where ${populationSql})`), [organisationId, from, from, from]),
  ]);
  const weeks = new Map<string, WeekCells>();
  const cellsOf = (week: string) => weeks.get(week) ?? weeks.set(week, emptyWeek()).get(week)!;
  for (const row of activity) readActivity(cellsOf(row.week), row);
  for (const row of goals) readGoals(cellsOf(row.week), row);
  return weeks;
}

/**
 * Goals set and completed by week and member group (m: "id", "g"), in one pass over the goals:
 * each goal counted in the week it was set and in the week it was completed.
 */
const goalWeeksSql = (members: string) => `${members}
  select e."week"::date::text as "week", m."g",
    (count(distinct g."owner_id") filter (where e."set"))::int as "set_people", (count(*) filter (where e."set"))::int as "set_value",
    (count(distinct g."owner_id") filter (where not e."set"))::int as "done_people", (count(*) filter (where not e."set"))::int as "done_value"
  from "goal" g join m on m."id" = g."owner_id"
  cross join lateral (values (true, date_trunc('week', g."created_at" at time zone 'UTC')), (false, date_trunc('week', g."done_at" at time zone 'UTC'))) e("set", "week")
  where not g."is_sample" and (g."created_at" >= ?::date or g."done_at" >= ?::date) and e."week" >= ?::date
  group by e."week", m."g"`;

function readGoals(cells: WeekCells, row: WeekRow) {
  cells.goalsSet = { people: Number(row.set_people), value: Number(row.set_value) };
  cells.goalsCompleted = { people: Number(row.done_people), value: Number(row.done_value) };
}

/** A week's cells as 16 numbers (each metric's people and value, in `metrics` order), and back. */
const packCells = (cells: WeekCells): number[] => metrics.flatMap((metric) => [metric.get(cells).people, metric.get(cells).value]);
function unpackCells(numbers: number[]): WeekCells {
  const cells = emptyWeek();
  metrics.forEach((metric, m) => {
    const cell = metric.get(cells);
    cell.people = numbers[2 * m] ?? 0;
    cell.value = numbers[2 * m + 1] ?? 0;
  });
  return cells;
}

/**
 * A group's members as a short string: a group's counts of an ended week depend on its members
 * alone, so they are kept, and read again, under it.
 */
function membersFingerprint(members: number[]): string {
  return crypto.createHash('sha256').update(members.sort((a, b) => a - b).join(',')).digest('base64url').slice(0, 22);
}

type Counted = { week: string; g: number } & WeekRow;

/** Each row of counts (activity and goals, by week and group) read into `into`'s cell, if it has one. */
function readCounted(activity: Counted[], goals: Counted[], into: (row: Counted) => WeekCells | undefined) {
  for (const row of activity) {
    const cells = into(row);
    if (cells) readActivity(cells, row);
  }
  for (const row of goals) {
    const cells = into(row);
    if (cells) readGoals(cells, row);
  }
}

/**
 * The cells of each merged group of a breakdown, by week: `cells[group][week]` (groups in `keys`
 * order, weeks in `weeks` order, the current one last). As for the whole organisation, a week that
 * has ended is counted once and kept (organisation_breakdown_week), each group's counts under the
 * fingerprint of its members: when a member joins, leaves or moves, only the groups whose members
 * changed are counted again (a team or two, and 'Other' when it changed), over their members alone.
 * The current week is counted for every group on each answer. Each member's group is sent with the
 * query, so the database groups by it and reads no profile.
 */
async function groupCells(em: EntityManager, organisationId: number, by: AnalyticsGrouping, weeks: string[], asked: Partition, keys: string[]): Promise<WeekCells[][]> {
  const execute = sqlOf(em);
  const current = weeks[weeks.length - 1]!;
  const ended = weeks.slice(0, -1);
  const indexOfGroup = new Map(keys.map((key, index) => [key, index]));
  const membersOf = keys.map((): number[] => []);
  for (const [member, group] of asked.groupOfMember) membersOf[indexOfGroup.get(group)!]!.push(member);
  const fingerprints = membersOf.map((members) => membersFingerprint([...members]));

  const kept: Array<{ week: string; cells: Record<string, number[]> | string }> = await execute(
    `select "week"::text as "week", "cells" from "organisation_breakdown_week"
     where "organisation_id" = ? and "grouping" = ? and "week" >= ?::date and "week" < ?::date`,
    [organisationId, by, weeks[0]!, current],
  );
  const keptOf = new Map(kept.map((row) => [row.week, typeof row.cells === 'string' ? (JSON.parse(row.cells) as Record<string, number[]>) : row.cells]));
  const indexOfWeek = new Map(weeks.map((week, index) => [week, index]));
  const cells = keys.map(() => weeks.map(() => emptyWeek()));
  // The groups to count again (over the weeks from the first that lacks one of them), and the
  // weeks to keep again: those that lacked a group or still hold one that is gone.
  const recount = new Set<number>();
  const rewrite = new Set<string>();
  ended.forEach((week, w) => {
    const weekKept = keptOf.get(week);
    let found = 0;
    fingerprints.forEach((fingerprint, g) => {
      const numbers = weekKept?.[fingerprint];
      if (numbers) {
        cells[g]![w] = unpackCells(numbers);
        found += 1;
      } else recount.add(g);
    });
    if (found < fingerprints.length || Object.keys(weekKept ?? {}).length !== found) rewrite.add(week);
  });

  const members = `with m as materialized (select * from unnest(?::int[], ?::int[]) as m("id", "g"))`;
  const activitySql = `${members} select a."week"::text as "week", m."g", count(*)::int as "active", ${kindColumns}
     from "coaching_activity" a join m on m."id" = a."user_id"
     where a."organisation_id" = ? and a."week" >= ?::date and a."week" < ?::date
     group by a."week", m."g"`;
  const membersParams = (groups: number[]) => {
    const ids: number[] = [];
    const ofGroup: number[] = [];
    for (const g of groups) {
      for (const id of membersOf[g]!) {
        ids.push(id);
        ofGroup.push(g);
      }
    }
    return [`{${ids.join(',')}}`, `{${ofGroup.join(',')}}`];
  };
  const count = (groups: number[], from: string, to: string): Promise<[Counted[], Counted[]]> => {
    const params = membersParams(groups);
    return Promise.all([
      execute(activitySql, [...params, organisationId, from, to]),
      execute(`${goalWeeksSql(members)} having e."week" < ?::date`, [...params, from, from, from, to]),
    ]);
  };
  // Far enough ahead that the current week is all of "from the current week on".
  const [live, again] = await Promise.all([
    count(keys.map((_, g) => g), current, '9999-12-31'),
    recount.size ? count([...recount], ended.find((week) => rewrite.has(week))!, current) : Promise.resolve<[Counted[], Counted[]]>([[], []]),
  ]);
  const last = weeks.length - 1;
  readCounted(live[0], live[1], (row) => (row.week === current ? cells[Number(row.g)]?.[last] : undefined));
  readCounted(again[0], again[1], (row) => {
    const w = indexOfWeek.get(row.week);
    return w !== undefined && w < last && recount.has(Number(row.g)) ? cells[Number(row.g)]?.[w] : undefined;
  });

  if (rewrite.size) {
    const toWrite = ended.filter((week) => rewrite.has(week));
    const values = toWrite.map(() => '(?, ?, ?::date, ?::jsonb, now())').join(', ');
    await execute(
      `insert into "organisation_breakdown_week" ("organisation_id", "grouping", "week", "cells", "computed_at") values ${values}
       on conflict ("organisation_id", "grouping", "week") do update set "cells" = excluded."cells", "computed_at" = excluded."computed_at"`,
      toWrite.flatMap((week) => {
        const w = indexOfWeek.get(week)!;
        return [organisationId, by, week, JSON.stringify(Object.fromEntries(fingerprints.map((fingerprint, g) => [fingerprint, packCells(cells[g]![w]!)])))];
      }),
    );
    // Weeks before the breakdown's window are never read again.
    await execute(`delete from "organisation_breakdown_week" where "organisation_id" = ? and "grouping" = ? and "week" < ?::date`, [organisationId, by, weeks[0]!]);
  }
  return cells;
}

/**
 * The organisation's cells of each of `weeks` (oldest first, the current one last): a week that has
 * ended is counted once and kept (organisation_week: nothing is added to an ended week, since
 * coaching is counted in the week it happens); the current week is counted live.
 */
async function organisationWeeks(em: EntityManager, organisationId: number, weeks: string[]): Promise<Map<string, WeekCells>> {
  const current = weeks[weeks.length - 1]!;
  const connection = { execute: sqlOf(em) };
  const kept: Array<{ week: string; cells: WeekCells | string }> = await connection.execute(
    `select "week"::text as "week", "cells" from "organisation_week" where "organisation_id" = ? and "week" >= ?::date and "week" < ?::date`,
    [organisationId, weeks[0]!, current],
  );
  const cells = new Map<string, WeekCells>(weeks.map((week) => [week, emptyWeek()]));
  for (const row of kept) cells.set(row.week, typeof row.cells === 'string' ? (JSON.parse(row.cells) as WeekCells) : row.cells);
  const missing = weeks.slice(0, -1).filter((week) => !kept.some((row) => row.week === week));
  const counted = await weeklyCells(em, organisationId, missing[0] ?? current);
  for (const [week, weekCells] of counted) if (cells.has(week) && (week === current || missing.includes(week))) cells.set(week, weekCells);
  if (missing.length) {
    const values = missing.map(() => '(?, ?::date, ?::jsonb, now())').join(', ');
    await connection.execute(
      `insert into "organisation_week" ("organisation_id", "week", "cells", "computed_at") values ${values} on conflict do nothing`,
      missing.flatMap((week) => [organisationId, week, JSON.stringify(cells.get(week))]),
    );
  }
  return cells;
}

/** The frameworks and themes members used over the last weeks: how many members used each. */
async function labelCounts(em: EntityManager, organisationId: number, from: string) {
  const goalBits = `case g."framework" when 'GROW' then ${labelBit(coachingFrameworks, 'grow')} when 'SMART' then ${labelBit(coachingFrameworks, 'smart')} when 'OKR' then ${labelBit(coachingFrameworks, 'okr')} else 0 end`;
  const counts = (column: 'f' | 't', labels: readonly string[]) =>
    labels.map((label) => `count(*) filter (where ${column} & ${labelBit(labels, label)} <> 0) as "${column}_${label}"`).join(', ');
  const [row]: Array<Record<string, string | number>> = await sqlOf(em)(
    `with labelled as (
       select a."user_id", a."frameworks" as f, a."themes" as t from "coaching_activity" a
       where a."organisation_id" = ? and a."week" >= ?::date
       union all
       select g."owner_id", ${goalBits}, 0 from "goal" g join "app_user" u on u."id" = g."owner_id"
       where ${populationSql} and not g."is_sample" and g."created_at" >= ?::date
     ), per_member as (select "user_id", bit_or(f) as f, bit_or(t) as t from labelled group by "user_id")
     select ${counts('f', coachingFrameworks)}, ${counts('t', coachingThemes)} from per_member`,
    [organisationId, from, organisationId, from],
  );
  return {
    frameworks: coachingFrameworks.map((framework) => ({ framework, people: Number(row?.[`f_${framework}`] ?? 0) })),
    themes: coachingThemes.map((theme) => ({ theme, people: Number(row?.[`t_${theme}`] ?? 0) })),
  };
}

const hiddenSmall: Figure = { hidden: 'small' };
const hiddenWithheld: Figure = { hidden: 'withheld' };
const shown = (cell: Cell, minGroup: number): Figure => (cell.people >= minGroup ? { value: cell.value } : hiddenSmall);


/** A week's figures from its figures by metric (in `metrics` order). */
function weekFigures(week: string, figures: Figure[]): WeekFigures {
  return {
    week,
    active: figures[0]!,
    sessions: Object.fromEntries(sessionKinds.map((kind, index) => [kind, figures[1 + index]!])) as Record<SessionKind, Figure>,
    goalsSet: figures[1 + sessionKinds.length]!,
    goalsCompleted: figures[2 + sessionKinds.length]!,
  };
}

/**
 * The figures of each group for one week (`cells` by group), beside the organisation's: the small
 * ones hidden, and when those hidden together count fewer than the floor's people while the
 * organisation's figure is shown, the smallest shown ones withheld until they do.
 */
function groupWeekFigures(week: string, cells: WeekCells[], total: WeekCells, minGroup: number): WeekFigures[] {
  const figures = cells.map(() => new Array<Figure>(metrics.length));
  metrics.forEach((metric, m) => {
    let hiddenPeople = 0;
    let anyHidden = false;
    cells.forEach((groupCells, g) => {
      const cell = metric.get(groupCells);
      if (cell.people < minGroup) {
        figures[g]![m] = hiddenSmall;
        hiddenPeople += cell.people;
        anyHidden = true;
      } else figures[g]![m] = { value: cell.value };
    });
    if (!anyHidden || metric.get(total).people < minGroup) return;
    while (hiddenPeople < minGroup) {
      let smallest = -1;
      cells.forEach((groupCells, g) => {
        if (figures[g]![m] === hiddenSmall || figures[g]![m] === hiddenWithheld) return;
        if (smallest < 0 || metric.get(groupCells).people < metric.get(cells[smallest]!).people) smallest = g;
      });
      if (smallest < 0) break;
      figures[smallest]![m] = hiddenWithheld;
      hiddenPeople += metric.get(cells[smallest]!).people;
    }
  });
  return figures.map((groupFigures) => weekFigures(week, groupFigures));
}

async function managerNames(em: EntityManager, organisationId: number, keys: Array<string | null>): Promise<Map<string, string>> {
  const ids = keys.filter((key): key is string => key !== null && /^\d{1,9}$/.test(key)).map(Number);
  if (!ids.length) return new Map();
  const rows: Array<{ id: number; full_name: string }> = await sqlOf(em)(`select u."id", u."full_name" from "app_user" u where ${populationSql} and u."id" = any(?::int[])`, [organisationId, `{${ids.join(',')}}`]);
  return new Map(rows.map((row) => [String(row.id), row.full_name]));
}

/** A partition of the organisation's members into those of `members` and the rest. */
export function twoGroups(all: Partition, members: ReadonlySet<number>): Partition {
  const groupOfMember = new Map<number, string>();
  let inside = 0;
  for (const member of all.groupOfMember.keys()) {
    const key = members.has(member) ? 'in' : 'out';
    if (key === 'in') inside += 1;
    groupOfMember.set(member, key);
  }
  const groups: Partition['groups'] = new Map([
    ['in', { name: 'in', kind: 'group' as const, size: inside }],
    ['out', { name: 'out', kind: 'group' as const, size: groupOfMember.size - inside }],
  ]);
  if (groups.get('out')!.size === 0) groups.delete('out');
  return { groups, groupOfMember };
}

/** The analytics' privacy floor: ORG_ANALYTICS_MIN_GROUP, never below 3. */
export const minGroupOf = (ctx: AuthedContext) => Math.max(analyticsLimits.lowestMinGroup, ctx.deps.config.organisation.analyticsMinGroup);

export async function organisationAnalytics(ctx: AuthedContext, query: AnalyticsQuery, now = new Date()): Promise<AnalyticsAnswer> {
  const minGroup = minGroupOf(ctx);
  const organisationId = ctx.user.organisationId;
  const weeks = lastWeeks(now, analyticsLimits.weeks);
  const labelFrom = weeks[weeks.length - analyticsLimits.labelWeeks]!;
  const groupWeeks = weeks.slice(-analyticsLimits.groupWeeks);
  const by = query.by;

  // The whole organisation's figures are read while the breakdown's partition is checked.
  const organisationFigures = Promise.all([organisationWeeks(ctx.em, organisationId, weeks), labelCounts(ctx.em, organisationId, labelFrom), seatsInUse(ctx.em, organisationId)]);
  organisationFigures.catch(() => {});
  let asked: Partition | undefined;
  if (by) {
    const both = await partitions(ctx.em, organisationId, minGroup);
    asked = both[by];
    if (!breakdownIsSafe(asked, both[by === 'department' ? 'manager' : 'department'], asked.groupOfMember.size, minGroup)) {
      await organisationFigures.catch(() => undefined);
      throw new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: organisationTexts.analytics.refused(by, minGroup) });
    }
  }
  // In one order for every answer over the same partition (the kept weeks are stored in it).
  const keys = asked ? [...asked.groups.keys()].sort() : [];

  const [[total, labels, members], cells, names] = await Promise.all([
    organisationFigures,
    asked && by ? groupCells(ctx.em, organisationId, by, groupWeeks, asked, keys) : Promise.resolve([]),
    asked && by === 'manager' ? managerNames(ctx.em, organisationId, keys.map((key) => asked.groups.get(key)!.name)) : Promise.resolve(new Map<string, string>()),
  ]);

  const answer: AnalyticsAnswer = {
    minGroup,
    members,
    weeks: weeks.map((week) => weekFigures(week, metrics.map((metric) => shown(metric.get(total.get(week)!), minGroup)))),
    frameworks: labels.frameworks.map(({ framework, people }) => ({ framework, members: shown({ people, value: people }, minGroup) })),
    themes: labels.themes.map(({ theme, people }) => ({ theme, members: shown({ people, value: people }, minGroup) })),
    labelWeeks: analyticsLimits.labelWeeks,
  };

  if (asked && by) {
    const perGroup = keys.map((): WeekFigures[] => []);
    groupWeeks.forEach((week, w) => {
      const figures = groupWeekFigures(
        week,
        cells.map((groupWeeksCells) => groupWeeksCells[w]!),
        total.get(week)!,
        minGroup,
      );
      for (const [g, groupFigures] of figures.entries()) perGroup[g]!.push(groupFigures);
    });
    const groups: AnalyticsGroup[] = keys
      .map((key, g) => {
        const group = asked.groups.get(key)!;
        const name = group.name === null ? null : (names.get(group.name) ?? group.name);
        return { name, kind: group.kind, weeks: perGroup[g]! };
      })
      .sort((a, b) => Number(a.kind === 'other') - Number(b.kind === 'other') || Number(a.name === null) - Number(b.name === null) || (a.name ?? '').localeCompare(b.name ?? ''));
    answer.groups = { by, groups };
  }
  return answer;
}

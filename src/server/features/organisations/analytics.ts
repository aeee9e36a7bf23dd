import type { EntityManager } from '@mikro-orm/core';
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
const addCell = (into: Cell, cell: Cell) => {
  into.people += cell.people;
  into.value += cell.value;
};

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
  /** Which merged group each raw key falls in. */
  groupOfKey: Map<string, string>;
  /** Which merged group each member falls in. */
  groupOfMember: Map<number, string>;
};

const rawKey = (key: string | null) => (key === null ? '\u0000none' : `k:${key}`);
const otherKey = '\u0000other';

export async function partition(em: EntityManager, organisationId: number, by: AnalyticsGrouping, minGroup: number): Promise<Partition> {
  const rows: Array<{ id: number; key: string | null }> = await sqlOf(em)(`select u."id", ${groupKeySql[by]} as "key" from "app_user" u where ${populationSql}`, [organisationId]);
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
  return { groups, groupOfKey, groupOfMember };
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

type WeekRow = { week: string; key: string | null } & Record<string, string | number | null>;

/** The weekly cells of each raw group key ('' for the whole organisation). */
async function weeklyCells(em: EntityManager, organisationId: number, from: string, by: AnalyticsGrouping | undefined): Promise<Map<string, Map<string, WeekCells>>> {
  const connection = { execute: sqlOf(em) };
  const kindColumns = sessionKinds
    .map((kind) => `count(*) filter (where a."${kind}_sessions" > 0) as "${kind}_people", coalesce(sum(a."${kind}_sessions"), 0) as "${kind}_value"`)
    .join(', ');
  // Each member's group read once (not once per week of theirs); the whole organisation needs no
  // join: only members have activity rows.
  const members = `with m as materialized (select u."id", ${by ? groupKeySql[by] : 'null::text'} as "key" from "app_user" u where ${populationSql})`;
  const [activity, goalsSet, goalsDone]: WeekRow[][] = await Promise.all([
    by
      ? connection.execute(
          `${members} select a."week"::text as "week", m."key", count(*) as "active", ${kindColumns}
           from "coaching_activity" a join m on m."id" = a."user_id"
           where a."organisation_id" = ? and a."week" >= ?::date
           group by a."week", m."key"`,
          [organisationId, organisationId, from],
        )
      : connection.execute(
          `select a."week"::text as "week", null as "key", count(*) as "active", ${kindColumns}
           from "coaching_activity" a where a."organisation_id" = ? and a."week" >= ?::date group by a."week"`,
          [organisationId, from],
        ),
    ...(['created_at', 'done_at'] as const).map((column) =>
      connection.execute(
        `${members} select w."week"::date::text as "week", w."key", count(distinct w."owner_id") as "people", count(*) as "value"
         from (select date_trunc('week', g."${column}" at time zone 'UTC') as "week", m."key", g."owner_id"
               from "goal" g join m on m."id" = g."owner_id" where not g."is_sample" and g."${column}" >= ?::date) w
         group by w."week", w."key"`,
        [organisationId, from],
      ),
    ),
  ]);
  const byKey = new Map<string, Map<string, WeekCells>>();
  const cellsOf = (row: WeekRow) => {
    const raw = by ? rawKey(row.key) : '';
    const weeks = byKey.get(raw) ?? new Map<string, WeekCells>();
    byKey.set(raw, weeks);
    const cells = weeks.get(row.week) ?? emptyWeek();
    weeks.set(row.week, cells);
    return cells;
  };
  for (const row of activity) {
    const cells = cellsOf(row);
    cells.active = { people: Number(row.active), value: Number(row.active) };
    for (const kind of sessionKinds) cells.sessions[kind] = { people: Number(row[`${kind}_people`]), value: Number(row[`${kind}_value`]) };
  }
  for (const row of goalsSet) cellsOf(row).goalsSet = { people: Number(row.people), value: Number(row.value) };
  for (const row of goalsDone) cellsOf(row).goalsCompleted = { people: Number(row.people), value: Number(row.value) };
  return byKey;
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
  const counted = (await weeklyCells(em, organisationId, missing[0] ?? current, undefined)).get('') ?? new Map<string, WeekCells>();
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

const shown = (cell: Cell, minGroup: number): Figure => (cell.people >= minGroup ? { value: cell.value } : { hidden: 'small' });

function weekFigures(week: string, cells: WeekCells, figure: (metric: Metric, cell: Cell) => Figure): WeekFigures {
  const [active, ...rest] = metrics;
  const kinds = rest.slice(0, sessionKinds.length);
  const [set, completed] = rest.slice(sessionKinds.length);
  return {
    week,
    active: figure(active!, cells.active),
    sessions: Object.fromEntries(sessionKinds.map((kind, index) => [kind, figure(kinds[index]!, cells.sessions[kind])])) as Record<SessionKind, Figure>,
    goalsSet: figure(set!, cells.goalsSet),
    goalsCompleted: figure(completed!, cells.goalsCompleted),
  };
}

/**
 * The figures of each group for one week, beside the organisation's: the small ones hidden, and
 * when those hidden together count fewer than the floor's people while the organisation's figure
 * is shown, the smallest shown ones withheld until they do.
 */
function groupWeekFigures(week: string, groups: Array<{ key: string; cells: WeekCells }>, total: WeekCells, minGroup: number): Map<string, WeekFigures> {
  const decided = new Map<string, Map<Metric, Figure>>(groups.map((group) => [group.key, new Map()]));
  for (const metric of metrics) {
    const cells = groups.map((group) => ({ key: group.key, cell: metric.get(group.cells) }));
    const hidden = new Set(cells.filter(({ cell }) => cell.people < minGroup).map(({ key }) => key));
    const withheld = new Set<string>();
    if (metric.get(total).people >= minGroup && hidden.size > 0) {
      let hiddenPeople = cells.filter(({ key }) => hidden.has(key)).reduce((sum, { cell }) => sum + cell.people, 0);
      const visible = cells.filter(({ key }) => !hidden.has(key)).sort((a, b) => a.cell.people - b.cell.people);
      while (hiddenPeople < minGroup && visible.length) {
        const next = visible.shift()!;
        withheld.add(next.key);
        hiddenPeople += next.cell.people;
      }
    }
    for (const { key, cell } of cells) {
      decided.get(key)!.set(metric, hidden.has(key) ? { hidden: 'small' } : withheld.has(key) ? { hidden: 'withheld' } : { value: cell.value });
    }
  }
  return new Map(groups.map((group) => [group.key, weekFigures(week, group.cells, (metric) => decided.get(group.key)!.get(metric)!)]));
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
  return { groups, groupOfKey: new Map(), groupOfMember };
}

/** The analytics' privacy floor: ORG_ANALYTICS_MIN_GROUP, never below 3. */
export const minGroupOf = (ctx: AuthedContext) => Math.max(analyticsLimits.lowestMinGroup, ctx.deps.config.organisation.analyticsMinGroup);

export async function organisationAnalytics(ctx: AuthedContext, query: AnalyticsQuery, now = new Date()): Promise<AnalyticsAnswer> {
  const minGroup = minGroupOf(ctx);
  const organisationId = ctx.user.organisationId;
  const weeks = lastWeeks(now, analyticsLimits.weeks);
  const labelFrom = weeks[weeks.length - analyticsLimits.labelWeeks]!;
  const by = query.by;

  let breakdown: { asked: Partition; population: number } | undefined;
  if (by) {
    const other: AnalyticsGrouping = by === 'department' ? 'manager' : 'department';
    const [asked, otherPartition] = await Promise.all([partition(ctx.em, organisationId, by, minGroup), partition(ctx.em, organisationId, other, minGroup)]);
    const population = asked.groupOfMember.size;
    if (!breakdownIsSafe(asked, otherPartition, population, minGroup)) {
      throw new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: organisationTexts.analytics.refused(by, minGroup) });
    }
    breakdown = { asked, population };
  }

  const groupWeeks = weeks.slice(-analyticsLimits.groupWeeks);
  const [orgCells, cellsByKey, labels, members] = await Promise.all([
    organisationWeeks(ctx.em, organisationId, weeks),
    by ? weeklyCells(ctx.em, organisationId, groupWeeks[0]!, by) : Promise.resolve(new Map<string, Map<string, WeekCells>>()),
    labelCounts(ctx.em, organisationId, labelFrom),
    seatsInUse(ctx.em, organisationId),
  ]);

  const total = orgCells;
  // Each group's cells: the sum of the raw groups merged into it (they are disjoint).
  const grouped = new Map<string, Map<string, WeekCells>>();
  for (const [raw, byWeek] of cellsByKey) {
    const group = breakdown?.asked.groupOfKey.get(raw);
    if (group === undefined) continue;
    for (const [week, cells] of byWeek) {
      const groupCells = grouped.get(group) ?? new Map<string, WeekCells>();
      grouped.set(group, groupCells);
      const into = groupCells.get(week) ?? emptyWeek();
      groupCells.set(week, into);
      for (const metric of metrics) addCell(metric.get(into), metric.get(cells));
    }
  }

  const answer: AnalyticsAnswer = {
    minGroup,
    members,
    weeks: weeks.map((week) => weekFigures(week, total.get(week)!, (_, cell) => shown(cell, minGroup))),
    frameworks: labels.frameworks.map(({ framework, people }) => ({ framework, members: shown({ people, value: people }, minGroup) })),
    themes: labels.themes.map(({ theme, people }) => ({ theme, members: shown({ people, value: people }, minGroup) })),
    labelWeeks: analyticsLimits.labelWeeks,
  };

  if (breakdown && by) {
    const keys = [...breakdown.asked.groups.keys()];
    const names = by === 'manager' ? await managerNames(ctx.em, organisationId, keys.map((key) => breakdown.asked.groups.get(key)!.name)) : new Map<string, string>();
    const perGroup = new Map<string, WeekFigures[]>(keys.map((key) => [key, []]));
    for (const week of groupWeeks) {
      const figures = groupWeekFigures(
        week,
        keys.map((key) => ({ key, cells: grouped.get(key)?.get(week) ?? emptyWeek() })),
        total.get(week)!,
        minGroup,
      );
      for (const key of keys) perGroup.get(key)!.push(figures.get(key)!);
    }
    const groups: AnalyticsGroup[] = keys
      .map((key) => {
        const group = breakdown.asked.groups.get(key)!;
        const name = group.name === null ? null : (names.get(group.name) ?? group.name);
        return { name, kind: group.kind, weeks: perGroup.get(key)! };
      })
      .sort((a, b) => Number(a.kind === 'other') - Number(b.kind === 'other') || Number(a.name === null) - Number(b.name === null) || (a.name ?? '').localeCompare(b.name ?? ''));
    answer.groups = { by, groups };
  }
  return answer;
}

import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { Alert, Card, Group, SegmentedControl, Skeleton, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { sessionKinds, type AnalyticsAnswer, type AnalyticsGrouping, type Figure, type WeekFigures } from '../../../shared/schemas/analytics';
import { organisationTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { trpc } from '../../lib/trpc';

const texts = organisationTexts.analytics;

// The console's analytics: how coaching is used across the organisation, by week, and by
// department or manager when the breakdown is safe. Every number comes from the server over at
// least the privacy floor's people; a hidden one is shown as such, never guessed: the charts
// leave it out and each chart's table says 'fewer than 5' (or 'withheld') in its place.

const kindColors = { chat: 'teal.6', voice: 'blue.6', phone: 'violet.6', rehearsal: 'orange.6', debrief: 'grape.6' } as const;
const groupColors = ['teal.6', 'blue.6', 'orange.6', 'grape.6', 'cyan.7', 'pink.6', 'lime.7', 'indigo.6', 'yellow.7', 'red.6'];

const weekLabel = (week: string) => new Date(`${week}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const figureValue = (figure: Figure): number | null => ('value' in figure ? figure.value : null);

function FigureText({ figure, minGroup }: { figure: Figure; minGroup: number }) {
  if ('value' in figure) return <>{figure.value.toLocaleString('en-US')}</>;
  if (figure.hidden === 'small') return <Text span size="sm" c="dimmed">{texts.fewerThan(minGroup)}</Text>;
  return (
    <Tooltip label={texts.withheldHelp(minGroup)} multiline w={260} events={{ hover: true, focus: true, touch: true }}>
      <Text span size="sm" c="dimmed" tabIndex={0} style={{ textDecoration: 'underline dotted' }}>
        {texts.withheld}
      </Text>
    </Tooltip>
  );
}

/** A chart's figures as a table, folded away: the numbers a screen reader or a hidden week needs. */
function FiguresTable({ caption, columns, rows }: { caption: string; columns: string[]; rows: Array<{ key: string; cells: ReactNode[] }> }) {
  return (
    <details>
      <summary>
        <Text span size="sm">
          {texts.showTable}
        </Text>
      </summary>
      <Table.ScrollContainer minWidth={columns.length * 90} mah={320}>
        <Table striped stickyHeader aria-label={caption}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                {row.cells.map((cell, index) => (
                  <Table.Td key={columns[index]}>{cell}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </details>
  );
}

function ChartCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={id}>
      <Title id={id} order={3} size="h6" mb="sm">
        {title}
      </Title>
      <Stack gap="xs">{children}</Stack>
    </Card>
  );
}

function WeeklyCharts({ answer }: { answer: AnalyticsAnswer }) {
  const { minGroup, weeks } = answer;
  const data = weeks.map((week) => ({
    week: weekLabel(week.week),
    active: figureValue(week.active),
    ...Object.fromEntries(sessionKinds.map((kind) => [kind, figureValue(week.sessions[kind])])),
    goalsSet: figureValue(week.goalsSet),
    goalsCompleted: figureValue(week.goalsCompleted),
  }));
  const weekRows = (cells: (week: WeekFigures) => Figure[]) =>
    [...weeks].reverse().map((week) => ({ key: week.week, cells: [weekLabel(week.week), ...cells(week).map((figure, index) => <FigureText key={index} figure={figure} minGroup={minGroup} />)] }));
  return (
    <>
      <ChartCard id="analytics-active" title={texts.activeHeading}>
        <figure aria-label={texts.activeHeading} style={{ margin: 0 }}>
          <BarChart h={200} data={data} dataKey="week" series={[{ name: 'active', label: texts.activeSeries, color: 'teal.7' }]} withLegend={false} tickLine="none" />
        </figure>
        <FiguresTable caption={texts.activeHeading} columns={[texts.weekColumn, texts.activeSeries]} rows={weekRows((week) => [week.active])} />
      </ChartCard>
      <ChartCard id="analytics-sessions" title={texts.sessionsHeading}>
        <figure aria-label={texts.sessionsHeading} style={{ margin: 0 }}>
          <BarChart
            h={220}
            data={data}
            dataKey="week"
            type="stacked"
            series={sessionKinds.map((kind) => ({ name: kind, label: texts.sessionKinds[kind], color: kindColors[kind] }))}
            withLegend
            tickLine="none"
          />
        </figure>
        <FiguresTable
          caption={texts.sessionsHeading}
          columns={[texts.weekColumn, ...sessionKinds.map((kind) => texts.sessionKinds[kind])]}
          rows={weekRows((week) => sessionKinds.map((kind) => week.sessions[kind]))}
        />
      </ChartCard>
      <ChartCard id="analytics-goals" title={texts.goalsHeading}>
        <figure aria-label={texts.goalsHeading} style={{ margin: 0 }}>
          <BarChart
            h={200}
            data={data}
            dataKey="week"
            series={[
              { name: 'goalsSet', label: texts.goalsSet, color: 'blue.6' },
              { name: 'goalsCompleted', label: texts.goalsCompleted, color: 'teal.7' },
            ]}
            withLegend
            tickLine="none"
          />
        </figure>
        <FiguresTable caption={texts.goalsHeading} columns={[texts.weekColumn, texts.goalsSet, texts.goalsCompleted]} rows={weekRows((week) => [week.goalsSet, week.goalsCompleted])} />
      </ChartCard>
    </>
  );
}

function LabelList<T extends string>({ id, title, items, names, minGroup }: { id: string; title: string; items: Array<{ label: T; members: Figure }>; names: Record<T, string>; minGroup: number }) {
  const shown = items.filter((item) => 'value' in item.members);
  return (
    <ChartCard id={id} title={title}>
      {shown.length > 0 && (
        <figure aria-label={title} style={{ margin: 0 }}>
          <BarChart
            h={Math.max(120, shown.length * 36)}
            data={shown.map((item) => ({ name: names[item.label], members: figureValue(item.members) }))}
            dataKey="name"
            orientation="vertical"
            yAxisProps={{ width: 150 }}
            series={[{ name: 'members', label: texts.membersColumn, color: 'indigo.6' }]}
            withLegend={false}
          />
        </figure>
      )}
      <Table aria-label={title}>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.label}>
              <Table.Td>{names[item.label]}</Table.Td>
              <Table.Td ta="right">
                <FigureText figure={item.members} minGroup={minGroup} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ChartCard>
  );
}

function GroupCharts({ answer }: { answer: AnalyticsAnswer }) {
  const groups = answer.groups;
  if (!groups) return null;
  const { minGroup } = answer;
  const nameOf = (group: (typeof groups.groups)[number]) =>
    group.kind === 'other' ? texts.groupOther(minGroup) : (group.name ?? texts.groupNone[groups.by]);
  const recent = answer.weeks.slice(-12);
  const data = recent.map((week, index) => ({
    week: weekLabel(week.week),
    ...Object.fromEntries(groups.groups.map((group, g) => [`g${g}`, figureValue(group.weeks[group.weeks.length - recent.length + index]!.active)])),
  }));
  const title = `${texts.activeHeading} · ${texts.breakdowns[groups.by]}`;
  return (
    <ChartCard id="analytics-groups" title={title}>
      <figure aria-label={title} style={{ margin: 0 }}>
        <LineChart
          h={220}
          data={data}
          dataKey="week"
          series={groups.groups.slice(0, groupColors.length).map((group, g) => ({ name: `g${g}`, label: nameOf(group), color: groupColors[g]! }))}
          withLegend
          connectNulls={false}
          curveType="monotone"
        />
      </figure>
      <FiguresTable
        caption={title}
        columns={[texts.breakdowns[groups.by], ...recent.map((week) => weekLabel(week.week))]}
        rows={groups.groups.map((group) => ({
          key: `${group.kind}:${group.name ?? ''}`,
          cells: [nameOf(group), ...group.weeks.slice(-recent.length).map((week) => <FigureText key={week.week} figure={week.active} minGroup={minGroup} />)],
        }))}
      />
    </ChartCard>
  );
}

export function AnalyticsSection() {
  const [by, setBy] = useState<AnalyticsGrouping | 'none'>('none');
  const whole = useQuery(trpc.admin.analytics.queryOptions({}, { retry: false, staleTime: 60_000 }));
  const grouped = useQuery(trpc.admin.analytics.queryOptions({ by: by === 'none' ? undefined : by }, { retry: false, staleTime: 60_000, enabled: by !== 'none', placeholderData: keepPreviousData }));
  const answer = whole.data;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="analytics-heading">
      <Group justify="space-between" align="flex-start" mb="xs" gap="xs">
        <Title id="analytics-heading" order={2} size="h5">
          {texts.heading}
        </Title>
        {whole.data && (
          <Text size="sm" c="dimmed">
            {texts.members(whole.data.members)}
          </Text>
        )}
      </Group>
      {whole.isError ? (
        <Alert color="red">{errorMessage(whole.error, texts.loadFailed)}</Alert>
      ) : !answer ? (
        <Skeleton height={220} />
      ) : (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {texts.description(answer.minGroup, answer.labelWeeks)}
          </Text>
          <WeeklyCharts answer={answer} />
          <Group gap="md" grow align="flex-start" wrap="wrap">
            <LabelList id="analytics-frameworks" title={texts.frameworksHeading} items={answer.frameworks.map((f) => ({ label: f.framework, members: f.members }))} names={texts.frameworks} minGroup={answer.minGroup} />
            <LabelList id="analytics-themes" title={texts.themesHeading} items={answer.themes.map((t) => ({ label: t.theme, members: t.members }))} names={texts.themes} minGroup={answer.minGroup} />
          </Group>
          <Stack gap={6}>
            <Text size="sm" fw={500} id="analytics-breakdown-label">
              {texts.breakdownLabel}
            </Text>
            <SegmentedControl
              aria-labelledby="analytics-breakdown-label"
              value={by}
              onChange={(value) => setBy(value as AnalyticsGrouping | 'none')}
              data={[
                { value: 'none', label: texts.breakdownNone },
                { value: 'department', label: texts.breakdowns.department },
                { value: 'manager', label: texts.breakdowns.manager },
              ]}
              style={{ alignSelf: 'flex-start' }}
            />
          </Stack>
          {by !== 'none' &&
            (grouped.isError ? (
              <Alert color="orange" role="status">
                {errorMessage(grouped.error, texts.loadFailed)}
              </Alert>
            ) : grouped.isFetching && !grouped.data?.groups ? (
              <Skeleton height={220} />
            ) : grouped.data?.groups?.by === by ? (
              <GroupCharts answer={grouped.data} />
            ) : null)}
        </Stack>
      )}
    </Card>
  );
}

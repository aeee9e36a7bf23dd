import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { Button, Card, SegmentedControl, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import type { DebriefTrendPoint } from '../../../shared/schemas/debriefs';
import { debriefTexts, meetingsTexts } from '../../../shared/texts';
import { PageFrame } from '../../components/shell/PageFrame';
import { trpc } from '../../lib/trpc';
import { wallDate } from '../meetings/meetingFormat';

/** The averages of the points of each group (a person: the main other speaker; a series: the subject). */
export function groupTrends(points: DebriefTrendPoint[], by: 'person' | 'series') {
  const groups = new Map<string, DebriefTrendPoint[]>();
  for (const p of points) {
    const key = by === 'person' ? (p.mainSpeaker ?? '—') : p.subject || meetingsTexts.noSubject;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const mean = (list: number[]) => Math.round((list.reduce((a, b) => a + b, 0) / list.length) * 10) / 10;
  return [...groups].map(([name, list]) => ({
    name,
    talkShare: mean(list.map((p) => p.talkShare * 100)),
    questions: mean(list.map((p) => p.questionsAsked)),
    interruptions: mean(list.map((p) => p.interruptions)),
  }));
}

// /debriefs: the user's talk share, questions and interruptions across their debriefed
// meetings, over time and by person or by meeting series; and the share of rehearsed behaviours
// that showed up in real meetings.
export function TrendsPage() {
  const trends = useQuery(trpc.debriefs.trends.queryOptions());
  const [by, setBy] = useState<'person' | 'series'>('person');
  const points = trends.data?.points ?? [];
  const overTime = useMemo(
    () => points.map((p) => ({ meeting: `${wallDate(p.start).slice(5)} ${p.subject.slice(0, 18)}`, talkShare: Math.round(p.talkShare * 100), questions: p.questionsAsked, interruptions: p.interruptions })),
    [points],
  );
  const grouped = useMemo(() => groupTrends(points, by), [points, by]);
  const rehearsed = points.filter((p) => p.rehearsedShare !== null).map((p) => ({ meeting: `${wallDate(p.start).slice(5)} ${p.subject.slice(0, 18)}`, rehearsed: Math.round((p.rehearsedShare ?? 0) * 100) }));
  return (
    <PageFrame title={debriefTexts.trendsTitle} subtitle={debriefTexts.trendsDescription}>
      {trends.isPending ? (
        <Skeleton height={260} radius="md" />
      ) : points.length === 0 ? (
        <Card withBorder radius="md" padding="lg">
          <Stack align="center" gap="sm">
            <Text c="dimmed" ta="center">
              {debriefTexts.trendsEmpty}
            </Text>
            <Button component={Link} to="/meetings" variant="light">
              {debriefTexts.recentHeading}
            </Button>
          </Stack>
        </Card>
      ) : (
        <Stack gap="lg">
          <Card withBorder radius="md" padding="md">
            <Title order={2} size="h5" mb="sm">
              {debriefTexts.talkShareLabel}
            </Title>
            <figure aria-label={debriefTexts.talkShareLabel} style={{ margin: 0 }}>
              <LineChart h={220} data={overTime} dataKey="meeting" series={[{ name: 'talkShare', label: debriefTexts.talkShareLabel, color: 'teal.6' }]} unit="%" yAxisProps={{ domain: [0, 100] }} curveType="monotone" withLegend={false} />
            </figure>
          </Card>
          <Card withBorder radius="md" padding="md">
            <Title order={2} size="h5" mb="sm">
              {debriefTexts.questionsLabel} · {debriefTexts.interruptionsLabel}
            </Title>
            <figure aria-label={`${debriefTexts.questionsLabel} · ${debriefTexts.interruptionsLabel}`} style={{ margin: 0 }}>
              <BarChart
                h={220}
                data={overTime}
                dataKey="meeting"
                series={[
                  { name: 'questions', label: debriefTexts.questionsLabel, color: 'blue.5' },
                  { name: 'interruptions', label: debriefTexts.interruptionsLabel, color: 'orange.5' },
                ]}
                withLegend
              />
            </figure>
          </Card>
          <Card withBorder radius="md" padding="md">
            <SegmentedControl
              mb="sm"
              value={by}
              onChange={(value) => setBy(value as 'person' | 'series')}
              data={[
                { value: 'person', label: debriefTexts.byPerson },
                { value: 'series', label: debriefTexts.bySeries },
              ]}
            />
            <figure aria-label={by === 'person' ? debriefTexts.byPerson : debriefTexts.bySeries} style={{ margin: 0 }}>
              <BarChart
                h={Math.max(160, grouped.length * 48)}
                data={grouped}
                dataKey="name"
                orientation="vertical"
                yAxisProps={{ width: 120 }}
                series={[
                  { name: 'talkShare', label: `${debriefTexts.talkShareLabel} (%)`, color: 'teal.6' },
                  { name: 'questions', label: debriefTexts.questionsLabel, color: 'blue.5' },
                  { name: 'interruptions', label: debriefTexts.interruptionsLabel, color: 'orange.5' },
                ]}
                withLegend
              />
            </figure>
          </Card>
          {rehearsed.length > 0 && (
            <Card withBorder radius="md" padding="md">
              <Title order={2} size="h5" mb="sm">
                {debriefTexts.rehearsedTrendHeading}
              </Title>
              <BarChart h={180} data={rehearsed} dataKey="meeting" series={[{ name: 'rehearsed', label: debriefTexts.rehearsedTrendHeading, color: 'grape.5' }]} unit="%" yAxisProps={{ domain: [0, 100] }} />
            </Card>
          )}
        </Stack>
      )}
    </PageFrame>
  );
}

import { Anchor, Badge, Button, Grid, Group, Paper, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconMessageCircle, IconPencil, IconPlus, IconRotate, IconTrash } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { GoalView } from '../../../shared/schemas/goals';
import { goalTexts } from '../../../shared/texts';
import { keyResultPercent, percentOf } from '../../../shared/goalProgress';
import { formatDueDate, statusColors, statusLabels, withUnit } from './goalFormat';
import { lazy, Suspense } from 'react';
import { useNearViewport } from './useNearViewport';
import { SampleBadge } from '../../components/SampleBadge';

// The charting library is most of the page's code: it loads on its own, after the goals show.
const GoalProgressChart = lazy(() => import('./GoalProgressChart').then((module) => ({ default: module.GoalProgressChart })));

type KeyResult = GoalView['keyResults'][number];

/** One goal: its status, progress overall and per key result, the chart and what can be done. */
export function GoalCard(props: {
  goal: GoalView;
  onCheckIn: (keyResult: KeyResult) => void;
  onEdit: () => void;
  onDelete: () => void;
  onToggleDone: () => void;
  toggling: boolean;
  /** On screen from the start: its details need not wait until they scroll near. */
  eager?: boolean;
}) {
  const { goal } = props;
  // The key results, the chart and its table are most of a card: a page of many goals makes
  // them only for the cards near the screen.
  const details = useNearViewport<HTMLDivElement>(props.eager ?? false);
  const done = goal.doneAt !== null;
  const color = statusColors[goal.status];
  const overall = percentOf(goal.progress);
  const titleId = `goal-${goal.id}-title`;

  return (
    <Paper
      component="article"
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      aria-labelledby={titleId}
      // A long list of goals: the browser lays out and paints only the cards near the screen.
      style={{ contentVisibility: 'auto', containIntrinsicSize: 'auto 420px' }}
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
          <Stack gap={6} style={{ flex: '1 1 240px', minWidth: 0 }}>
            <Title order={3} size="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
              {goal.title}
            </Title>
            <Group gap="xs" wrap="wrap">
              <Badge variant="outline" color="gray" aria-label={goalTexts.frameworkBadge(goal.framework)}>
                {goal.framework}
              </Badge>
              <Badge variant="light" color={color} aria-label={goalTexts.statusBadge(statusLabels[goal.status])}>
                {statusLabels[goal.status]}
              </Badge>
              {goal.sample && (
                <SampleBadge />
              )}
              <Text size="sm" c="dimmed">
                {goalTexts.due(formatDueDate(goal.dueDate))}
              </Text>
              {goal.chatId !== null && (
                <Anchor
                  size="sm"
                  renderRoot={(rootProps) => <Link {...rootProps} to="/app" search={{ chat: goal.chatId ?? undefined }} />}
                  style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
                >
                  <IconMessageCircle size={14} aria-hidden />
                  {goalTexts.fromChat}
                </Anchor>
              )}
            </Group>
          </Stack>
          <Group gap="xs" wrap="wrap" role="group" aria-label={goalTexts.goalActions(goal.title)}>
            <Button
              size="xs"
              variant={done ? 'default' : 'light'}
              color={done ? undefined : 'teal'}
              leftSection={done ? <IconRotate size={14} aria-hidden /> : <IconCheck size={14} aria-hidden />}
              loading={props.toggling}
              onClick={props.onToggleDone}
            >
              {done ? goalTexts.reopen : goalTexts.markDone}
            </Button>
            <Button size="xs" variant="default" leftSection={<IconPencil size={14} aria-hidden />} onClick={props.onEdit}>
              {goalTexts.edit}
            </Button>
            <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={props.onDelete}>
              {goalTexts.delete}
            </Button>
          </Group>
        </Group>

        <div>
          <Group justify="space-between" gap="xs" mb={4}>
            <Text size="sm" fw={600}>
              {goalTexts.progress}
            </Text>
            <Text size="sm" fw={600}>
              {goalTexts.percent(overall)}
            </Text>
          </Group>
          <Progress value={overall} color={color} size="lg" radius="xl" aria-label={goalTexts.progressOf(goal.title)} />
        </div>

        <div ref={details.ref} style={details.near ? undefined : { minHeight: detailsHeight(goal) }}>
          {details.near && <GoalDetails goal={goal} color={color} done={done} onCheckIn={props.onCheckIn} />}
        </div>
      </Stack>
    </Paper>
  );
}

function GoalDetails(props: { goal: GoalView; color: string; done: boolean; onCheckIn: (keyResult: KeyResult) => void }) {
  const { goal, color, done } = props;
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Text size="sm" fw={600} mb="xs">
          {goalTexts.keyResultsLabel}
        </Text>
        {goal.keyResults.length === 0 ? (
          <Text size="sm" c="dimmed">
            {goalTexts.noKeyResults}
          </Text>
        ) : (
          <Stack gap="md" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {goal.keyResults.map((kr) => (
              <KeyResultRow key={kr.id} keyResult={kr} color={color} canCheckIn={!done} onCheckIn={() => props.onCheckIn(kr)} />
            ))}
          </Stack>
        )}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Text size="sm" fw={600} mb="xs">
          {goalTexts.history}
        </Text>
        <Suspense fallback={<Skeleton h={200} />}>
          <GoalProgressChart goal={goal} />
        </Suspense>
      </Grid.Col>
    </Grid>
  );
}

/** About the height of a card's details, so the page keeps its length before they are made. */
function detailsHeight(goal: GoalView): number {
  return Math.max(230, 40 + goal.keyResults.length * 64);
}

function KeyResultRow(props: { keyResult: KeyResult; color: string; canCheckIn: boolean; onCheckIn: () => void }) {
  const kr = props.keyResult;
  // The same computation as the chart and its table (src/shared/goalProgress.ts).
  const percent = keyResultPercent(kr, kr.current);
  return (
    <li aria-label={kr.title}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {kr.title}
          </Text>
          <Text size="xs" c="dimmed">
            {goalTexts.keyResultLine(withUnit(kr.current, kr.unit), withUnit(kr.start, kr.unit), withUnit(kr.target, kr.unit), percent)}
          </Text>
        </div>
        {props.canCheckIn && (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconPlus size={14} aria-hidden />}
            aria-label={goalTexts.checkInTitle(kr.title)}
            onClick={props.onCheckIn}
            style={{ flexShrink: 0 }}
          >
            {goalTexts.checkIn}
          </Button>
        )}
      </Group>
      <Progress value={percent} color={props.color} size="sm" radius="xl" mt={6} aria-label={goalTexts.progressOf(kr.title)} />
    </li>
  );
}

import { Alert, Button, Group, Modal, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMessageCircle, IconPlus, IconTargetArrow } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { GoalView } from '../../../shared/schemas/goals';
import { commonTexts, goalTexts } from '../../../shared/texts';
import { PageFrame } from '../../components/shell/PageFrame';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { CheckInModal, type CheckInTarget } from './CheckInModal';
import { GoalCard } from './GoalCard';
import { useProgressiveCount } from './useProgressiveCount';
import { GoalFormModal, type GoalFormTarget } from './GoalFormModal';
import { GoalsSkeleton } from './GoalsSkeleton';
import { dropGoal, goalsQueryOptions, splitGoals, upsertGoal } from './goalsCache';
import { useLastValue } from './useLastValue';

// The first cards fill the screen: their details are made at once, the rest as they scroll near.
const eagerCards = 4;
// Cards rendered with the first paint; the others follow in a transition (useProgressiveCount).
const firstScreenCards = 8;

// /goals: active goals first, then the done ones, each with its key results, status,
// progress over time and check-ins; New goal, Edit, Delete, Mark done / Reopen.
export function GoalsPage() {
  const queryClient = useQueryClient();
  const goals = useQuery(goalsQueryOptions());
  const shown = useProgressiveCount(goals.data?.goals.length ?? 0, firstScreenCards);
  const [form, setForm] = useState<GoalFormTarget | null>(null);
  const [checkIn, setCheckIn] = useState<CheckInTarget | null>(null);
  const [deleting, setDeleting] = useState<GoalView | null>(null);

  const toggleDone = useMutation(
    trpc.goals.update.mutationOptions({
      onSuccess: (goal) => {
        upsertGoal(queryClient, goal);
        notify.success(goal.doneAt ? goalTexts.markedDone : goalTexts.reopened);
      },
      onError: (error) => notify.error(goalTexts.saveFailed, errorMessage(error, commonTexts.genericError)),
    }),
  );

  const newGoalButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setForm({ kind: 'create' })}>
      {goalTexts.newGoal}
    </Button>
  );

  let body: React.ReactNode;
  if (goals.isPending) body = <GoalsSkeleton />;
  else if (goals.isError) {
    body = (
      <Alert color="red" title={goalTexts.loadFailed}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{errorMessage(goals.error, commonTexts.genericError)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void goals.refetch()} loading={goals.isFetching}>
            {goalTexts.retry}
          </Button>
        </Stack>
      </Alert>
    );
  } else if (goals.data.goals.length === 0) body = <EmptyGoals />;
  else {
    const split = splitGoals(goals.data.goals);
    const active = split.active.slice(0, shown);
    const done = split.done.slice(0, Math.max(0, shown - split.active.length));
    const card = (goal: GoalView, index: number, list: GoalView[]) => (
      <GoalCard
        key={goal.id}
        goal={goal}
        eager={list === active ? index < eagerCards : active.length + index < eagerCards}
        onCheckIn={(keyResult) => setCheckIn({ goal, keyResult })}
        onEdit={() => setForm({ kind: 'edit', goal })}
        onDelete={() => setDeleting(goal)}
        onToggleDone={() => toggleDone.mutate({ goalId: goal.id, done: !goal.doneAt })}
        toggling={toggleDone.isPending && toggleDone.variables?.goalId === goal.id}
      />
    );
    body = (
      <Stack gap="xl">
        {active.length > 0 && (
          <Stack gap="md" component="section" aria-labelledby="active-goals-heading">
            <Title order={2} size="h5" c="dimmed" tt="uppercase" id="active-goals-heading">
              {goalTexts.activeGoals}
            </Title>
            {active.map(card)}
          </Stack>
        )}
        {split.done.length > 0 && done.length > 0 && (
          <Stack gap="md" component="section" aria-labelledby="done-goals-heading">
            <Title order={2} size="h5" c="dimmed" tt="uppercase" id="done-goals-heading">
              {goalTexts.doneGoals}
            </Title>
            {done.map(card)}
          </Stack>
        )}
      </Stack>
    );
  }

  return (
    <PageFrame
      title={goalTexts.pageTitle}
      subtitle={goalTexts.pageSubtitle}
      size="lg"
      action={newGoalButton}
      after={
        <>
          <GoalFormModal target={form} onClose={() => setForm(null)} />
          <CheckInModal target={checkIn} onClose={() => setCheckIn(null)} />
          <DeleteGoalModal goal={deleting} onClose={() => setDeleting(null)} onDeleted={(goalId) => dropGoal(queryClient, goalId)} />
        </>
      }
    >
      {body}
    </PageFrame>
  );
}

function EmptyGoals() {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="goals-empty-title">
      <Stack gap="md" align="flex-start">
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
          <IconTargetArrow size={26} />
        </ThemeIcon>
        <div>
          <Title order={2} size="h3" id="goals-empty-title">
            {goalTexts.emptyTitle}
          </Title>
          <Text c="dimmed" mt={6} maw={640}>
            {goalTexts.emptyBody}
          </Text>
        </div>
        <Button
          leftSection={<IconMessageCircle size={16} aria-hidden />}
          // Long labels wrap on narrow screens instead of running out of the card.
          styles={{ root: { maxWidth: '100%', height: 'auto', minHeight: 36, paddingTop: 8, paddingBottom: 8 }, label: { whiteSpace: 'normal', textAlign: 'left' } }}
          renderRoot={(rootProps) => <Link {...rootProps} to="/app" search={{ new: true }} />}
        >
          {goalTexts.startWithCoach}
        </Button>
      </Stack>
    </Paper>
  );
}

function DeleteGoalModal(props: { goal: GoalView | null; onClose: () => void; onDeleted: (goalId: number) => void }) {
  const remove = useMutation(trpc.goals.delete.mutationOptions());
  const goal = useLastValue(props.goal);
  const confirm = async () => {
    if (!goal) return;
    try {
      await remove.mutateAsync({ goalId: goal.id });
      props.onDeleted(goal.id);
      notify.success(goalTexts.deleted);
      props.onClose();
    } catch (error) {
      notify.error(goalTexts.deleteFailed, errorMessage(error, commonTexts.genericError));
    }
  };
  return (
    <Modal opened={props.goal !== null} onClose={props.onClose} title={goalTexts.deleteGoal} centered>
      {goal && (
        <Stack gap="md">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {goalTexts.deleteConfirm(goal.title)}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={props.onClose} data-autofocus>
              {goalTexts.cancel}
            </Button>
            <Button color="red" onClick={() => void confirm()} loading={remove.isPending}>
              {goalTexts.delete}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

import { Button, Group } from '@mantine/core';
import { IconCircleCheck, IconTargetArrow } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useMemo, useState } from 'react';
import { goalDraftFromReply } from '../../../shared/goalDraft';
import type { GoalView } from '../../../shared/schemas/goals';
import { goalTexts } from '../../../shared/texts';
import type { GoalFormTarget } from './GoalFormModal';
import { goalsQueryOptions } from './goalsCache';

// The goal form (its number and date inputs, select, zod schema) is loaded when a user first
// opens it, not with every coach reply that could become a goal (/app's first visit).
const GoalFormModal = lazy(() => import('./GoalFormModal').then((module) => ({ default: module.GoalFormModal })));

/**
 * 'Save as goal' under a coach reply that holds a SMART, OKR or GROW result: the goal form opens
 * prefilled from the reply (and the chat it came from), for the user to check and save. Once
 * saved (now, or before: a goal of this chat with the draft's title), it is a link to the goal
 * instead of a second save (the button stayed and made duplicates).
 */
export function SaveAsGoal(props: { text: string; chatId: number }) {
  const draft = useMemo(() => goalDraftFromReply(props.text), [props.text]);
  const [target, setTarget] = useState<GoalFormTarget | null>(null);
  const [savedNow, setSavedNow] = useState<GoalView | null>(null);
  // Mounted from the first opening on, so that closing it plays the modal's exit transition.
  const [opened, setOpened] = useState(false);
  // One list for every reply of the page (the Goals page's cache, kept in step with each save).
  const goals = useQuery({ ...goalsQueryOptions(), enabled: draft !== null, staleTime: 60_000 });
  if (!draft) return null;
  const saved = savedNow ?? goals.data?.goals.find((goal) => goal.chatId === props.chatId && goal.title === draft.title) ?? null;
  return (
    <>
      <Group gap="xs" mt={4}>
        {saved ? (
          <Button
            size="xs"
            variant="subtle"
            color="teal"
            leftSection={<IconCircleCheck size={14} aria-hidden />}
            renderRoot={(rootProps) => <Link {...rootProps} to="/goals" />}
            aria-label={goalTexts.savedAsGoalLabel(saved.title)}
          >
            {goalTexts.savedAsGoal}
          </Button>
        ) : (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconTargetArrow size={14} aria-hidden />}
            onClick={() => {
              setOpened(true);
              setTarget({ kind: 'create', draft, chatId: props.chatId });
            }}
          >
            {goalTexts.saveAsGoal}
          </Button>
        )}
      </Group>
      {opened && (
        <Suspense fallback={null}>
          <GoalFormModal target={target} onClose={() => setTarget(null)} onSaved={setSavedNow} />
        </Suspense>
      )}
    </>
  );
}

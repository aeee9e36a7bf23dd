import { Button, Group } from '@mantine/core';
import { IconTargetArrow } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { goalDraftFromReply } from '../../../shared/goalDraft';
import { goalTexts } from '../../../shared/texts';
import type { GoalFormTarget } from './GoalFormModal';

// The goal form (its number and date inputs, select, zod schema) is loaded when a user first
// opens it, not with every coach reply that could become a goal (/app's first visit).
const GoalFormModal = lazy(() => import('./GoalFormModal').then((module) => ({ default: module.GoalFormModal })));

/**
 * 'Save as goal' under a coach reply that holds a SMART, OKR or GROW result: the goal form opens
 * prefilled from the reply (and the chat it came from), for the user to check and save.
 */
export function SaveAsGoal(props: { text: string; chatId: number }) {
  const draft = useMemo(() => goalDraftFromReply(props.text), [props.text]);
  const [target, setTarget] = useState<GoalFormTarget | null>(null);
  // Mounted from the first opening on, so that closing it plays the modal's exit transition.
  const [opened, setOpened] = useState(false);
  if (!draft) return null;
  return (
    <>
      <Group gap="xs" mt={4}>
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
      </Group>
      {opened && (
        <Suspense fallback={null}>
          <GoalFormModal target={target} onClose={() => setTarget(null)} />
        </Suspense>
      )}
    </>
  );
}

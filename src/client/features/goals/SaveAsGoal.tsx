import { Button, Group } from '@mantine/core';
import { IconTargetArrow } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { goalDraftFromReply } from '../../../shared/goalDraft';
import { goalTexts } from '../../../shared/texts';
import { GoalFormModal, type GoalFormTarget } from './GoalFormModal';

/**
 * 'Save as goal' under a coach reply that holds a SMART, OKR or GROW result: the goal form opens
 * prefilled from the reply (and the chat it came from), for the user to check and save.
 */
export function SaveAsGoal(props: { text: string; chatId: number }) {
  const draft = useMemo(() => goalDraftFromReply(props.text), [props.text]);
  const [target, setTarget] = useState<GoalFormTarget | null>(null);
  if (!draft) return null;
  return (
    <>
      <Group gap="xs" mt={4}>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconTargetArrow size={14} aria-hidden />}
          onClick={() => setTarget({ kind: 'create', draft, chatId: props.chatId })}
        >
          {goalTexts.saveAsGoal}
        </Button>
      </Group>
      <GoalFormModal target={target} onClose={() => setTarget(null)} />
    </>
  );
}

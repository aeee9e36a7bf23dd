import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconBrain } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { commonTexts, memoryShellTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

// Under a reply that stored a memory, a small 'Memory updated' note linking to the
// Memory page, with Undo (which forgets what that reply stored). Loaded when a chat has one
// (useMemoryNotes.ts says which replies do).

export function MemoryUpdatedNote(props: { chatId: number; messageId: number }) {
  const queryClient = useQueryClient();
  const undo = useMutation(
    trpc.memories.undo.mutationOptions({
      onSuccess: () => {
        notify.success(memoryShellTexts.undone);
        void queryClient.invalidateQueries({ queryKey: trpc.memories.chatNotes.queryKey({ chatId: props.chatId }) });
        void queryClient.invalidateQueries({ queryKey: trpc.memories.list.queryKey() });
      },
      onError: (error) => notify.error(commonTexts.genericError, errorMessage(error, commonTexts.genericError)),
    }),
  );
  return (
    <Group gap={6} mt={4} ml={4} wrap="nowrap" role="note" aria-label={memoryShellTexts.memoryUpdated}>
      <IconBrain size={14} aria-hidden />
      <Text size="xs" c="dimmed">
        <Anchor component={Link} to="/memory" size="xs">
          {memoryShellTexts.memoryUpdated}
        </Anchor>
      </Text>
      <Button variant="subtle" size="compact-xs" onClick={() => undo.mutate({ messageId: props.messageId })} loading={undo.isPending}>
        {memoryShellTexts.undo}
      </Button>
    </Group>
  );
}

import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconBrain } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo } from 'react';
import { commonTexts, memoryShellTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

// Issue 24: under a reply that stored a memory, a small 'Memory updated' note linking to the
// Memory page, with Undo (which forgets what that reply stored).

/**
 * The replies of a chat that stored memories. Memories picked up after a reply are stored in the
 * background just after it completes: the notes are read again when a reply completes, and a
 * moment later.
 */
export function useMemoryNotes(chatId: number, completedReplies: number) {
  const queryClient = useQueryClient();
  const options = trpc.memories.chatNotes.queryOptions({ chatId });
  const notes = useQuery(options);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when a reply completes
  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: options.queryKey });
    refresh();
    const timers = [1_500, 5_000].map((ms) => setTimeout(refresh, ms));
    return () => timers.forEach(clearTimeout);
  }, [completedReplies]);
  return useMemo(() => new Set((notes.data?.notes ?? []).map((note) => note.messageId)), [notes.data]);
}

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

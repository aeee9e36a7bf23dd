import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { trpc } from '../../lib/trpc';

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

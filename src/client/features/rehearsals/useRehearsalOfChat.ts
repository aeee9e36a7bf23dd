import { useQuery } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';

/** The rehearsal a chat belongs to, asked for only when the chat list says it is one. */
export function useRehearsalOfChat(chatId: number, isRehearsal: boolean) {
  return useQuery({ ...trpc.rehearsals.ofChat.queryOptions({ chatId }), enabled: isRehearsal, staleTime: 60_000 });
}

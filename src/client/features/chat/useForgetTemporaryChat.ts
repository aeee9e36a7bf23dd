import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { trpc } from '../../lib/trpc';

// With storeChatHistory off (Settings, Privacy) a new chat is temporary: it is deleted once the
// user leaves it, by opening another chat or page, or by closing the tab (a keepalive request
// survives the page). The server also deletes it when another chat starts, and the retention
// job removes one left idle for an hour.
const scheduled = new Map<number, number>();

export function useForgetTemporaryChat(chatId: number) {
  const queryClient = useQueryClient();
  const isTemporary =
    useQuery({ ...trpc.chats.list.queryOptions(), select: (chats) => chats.find((chat) => chat.id === chatId)?.isTemporary ?? false }).data ?? false;

  useEffect(() => {
    if (!isTemporary) return;
    // Remounted at once (React's development double effects): this is not leaving.
    window.clearTimeout(scheduled.get(chatId));
    scheduled.delete(chatId);
    const forget = () => {
      void fetch(`/api/chats/${chatId}`, { method: 'DELETE', keepalive: true, credentials: 'same-origin' }).catch(() => undefined);
    };
    window.addEventListener('pagehide', forget);
    return () => {
      window.removeEventListener('pagehide', forget);
      scheduled.set(
        chatId,
        window.setTimeout(() => {
          scheduled.delete(chatId);
          forget();
          queryClient.setQueryData(trpc.chats.list.queryKey(), (chats) => chats?.filter((chat) => chat.id !== chatId));
        }, 0),
      );
    };
  }, [chatId, isTemporary, queryClient]);
}

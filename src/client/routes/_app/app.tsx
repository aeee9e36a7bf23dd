import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { messagesQueryOptions } from '../../features/chat/chatCache';
import { ChatPage } from '../../features/chat/ChatPage';

// The chat page (SPEC section 2): ?new=true starts a new conversation, ?chat={id} opens a chat.
export const Route = createFileRoute('/_app/app')({
  validateSearch: z.object({
    new: z.boolean().optional().catch(undefined),
    chat: z.number().int().positive().optional().catch(undefined),
  }),
  loaderDeps: ({ search }) => ({ chat: search.chat }),
  // Routes load, components read (CONVENTIONS 8). A chat that cannot be read is not an error
  // page: the component shows 'Chat not found' (or a retry) from the same query.
  loader: async ({ context: { queryClient, trpc }, deps }) => {
    await Promise.all([
      queryClient.ensureQueryData(trpc.chats.list.queryOptions()).catch(() => undefined),
      queryClient.ensureQueryData(trpc.chats.coachInfo.queryOptions()).catch(() => undefined),
      deps.chat ? queryClient.ensureInfiniteQueryData(messagesQueryOptions(deps.chat)).catch(() => undefined) : undefined,
    ]);
  },
  component: ChatRoute,
});

function ChatRoute() {
  const { chat } = Route.useSearch();
  return <ChatPage chatId={chat} />;
}

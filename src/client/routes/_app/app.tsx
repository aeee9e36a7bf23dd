import { createFileRoute } from '@tanstack/react-router';
import { ChatPage } from '../../features/chat/ChatPage';
import { optionalBoolean, optionalId } from '../../lib/searchParams';

// The chat page (the product spec's screens): ?new=true starts a new conversation, ?chat={id} opens a chat.
export const Route = createFileRoute('/_app/app')({
  // ?message={id} (with ?chat): a search result, scrolled to and marked.
  validateSearch: (search: Record<string, unknown>): { new?: boolean; chat?: number; message?: number } => ({
    new: optionalBoolean(search.new),
    chat: optionalId(search.chat),
    message: optionalId(search.message),
  }),
  loaderDeps: ({ search }) => ({ chat: search.chat }),
  // Routes load, components read (architecture rule 16). A chat that cannot be read is not an error
  // page: the component shows 'Chat not found' (or a retry) from the same query.
  loader: async ({ context: { queryClient }, deps }) => {
    const [{ trpc }, { messagesQueryOptions }, { loadOpenChat }, { loadComposerInput }] = await Promise.all([
      import('../../lib/trpc'),
      import('../../features/chat/chatCache'),
      import('../../features/chat/openChatModule'),
      import('../../features/chat/composerInput'),
    ]);
    await Promise.all([
      queryClient.ensureQueryData(trpc.chats.list.queryOptions()).catch(() => undefined),
      queryClient.ensureQueryData(trpc.chats.coachInfo.queryOptions()).catch(() => undefined),
      deps.chat ? queryClient.ensureInfiniteQueryData(messagesQueryOptions(deps.chat)).catch(() => undefined) : undefined,
      // A stored chat's page and thread come in a chunk of their own (features/chat/openChatModule.ts).
      deps.chat ? loadOpenChat().catch(() => undefined) : undefined,
      // The input's autosize where the browser has none of its own (features/chat/composerInput.ts).
      loadComposerInput().catch(() => undefined),
    ]);
  },
  component: ChatRoute,
});

function ChatRoute() {
  const { chat, message } = Route.useSearch();
  return <ChatPage chatId={chat} messageId={message} />;
}

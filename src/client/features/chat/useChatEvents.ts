import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useState } from 'react';
import type { ChatEvent } from '../../../server/features/chats/chatBus';
import { chatTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { trpc, trpcClient } from '../../lib/trpc';
import {
  messagesOf,
  messagesPageSize,
  messagesQueryOptions,
  removeChat,
  removeMessage,
  upsertChat,
  upsertMessage,
  type MessageDto,
} from './chatCache';
import { streamingReplies } from './streamingReplies';

/**
 * Where the subscription starts: after the newest message already on screen ('<id>:done'), or
 * at a reply still streaming ('<id>:0', which the server answers with a snapshot of its text).
 * After a reconnect tRPC's wsLink resumes from the last tracked id by itself.
 */
export function resumePoint(messages: MessageDto[]): string | null {
  const newest = messages[messages.length - 1];
  if (!newest) return null;
  return newest.status === 'streaming' ? `${newest.id}:0` : `${newest.id}:done`;
}

/**
 * Follows a chat's live events into the query cache (messages, chat list) and the streaming
 * store (reply text). Mount it once the chat's messages are loaded: the starting point is fixed
 * then, because a changing input would make the subscription start over.
 */
export function useChatEvents(chatId: number, options: { onDeleted: () => void }) {
  const queryClient = useQueryClient();
  const [lastEventId] = useState(() => resumePoint(cachedMessages(queryClient, chatId)));

  useSubscription(
    trpc.chats.events.subscriptionOptions(
      { chatId, lastEventId },
      {
        onStarted: () => void settleVanishedReplies(queryClient, chatId),
        onData: ({ data: event }) => applyChatEvent(queryClient, chatId, event, options.onDeleted),
      },
    ),
  );
}

function cachedMessages(queryClient: QueryClient, chatId: number) {
  return messagesOf(queryClient.getQueryData(messagesQueryOptions(chatId).queryKey));
}

export function applyChatEvent(queryClient: QueryClient, chatId: number, event: ChatEvent, onDeleted: () => void) {
  switch (event.type) {
    case 'message.created':
      if (event.message.status === 'streaming') streamingReplies.reset(event.message.id, event.message.content, 0);
      upsertMessage(queryClient, chatId, event.message);
      break;
    case 'message.snapshot':
      streamingReplies.reset(event.message.id, event.message.content, event.seq);
      upsertMessage(queryClient, chatId, { ...event.message, status: 'streaming' });
      break;
    case 'message.delta':
      streamingReplies.append(event.messageId, event.seq, event.text);
      break;
    case 'message.completed': {
      const { message, error } = event;
      // A reply that failed before its first word is not kept: the typing bubble goes away.
      if (message.status === 'failed' && !message.content) {
        removeMessage(queryClient, chatId, message.id);
        streamingReplies.finish(message.id);
      } else {
        upsertMessage(queryClient, chatId, message);
        streamingReplies.finish(message.id, message.content);
      }
      if (error) notify.error(chatTexts.errorTitle, chatTexts.replyFailed);
      break;
    }
    case 'chat.updated':
      upsertChat(queryClient, event.chat);
      break;
    case 'chat.deleted':
      removeChat(queryClient, chatId);
      onDeleted();
      break;
  }
}

/**
 * A reply that fails before its first word is deleted on the server, so a subscription that
 * starts (or resumes) after that moment can never hear of it. Each time the subscription starts,
 * replies the cache still shows as streaming are checked against the newest page.
 */
async function settleVanishedReplies(queryClient: QueryClient, chatId: number) {
  const streaming = cachedMessages(queryClient, chatId).filter((message) => message.status === 'streaming');
  if (!streaming.length) return;
  let page: Awaited<ReturnType<typeof trpcClient.chats.messages.query>>;
  try {
    page = await trpcClient.chats.messages.query({ chatId, limit: messagesPageSize });
  } catch {
    return; // the live events or the next start will settle it
  }
  const oldestOnPage = page.items[0]?.id ?? Infinity;
  for (const message of streaming) {
    if (streamingReplies.wasFinished(message.id)) continue;
    const stored = page.items.find((item) => item.id === message.id);
    if (stored) {
      // A final state never changes again, so it is safe to take over from the read.
      if (stored.status !== 'streaming') {
        upsertMessage(queryClient, chatId, stored);
        streamingReplies.finish(stored.id, stored.content);
      }
    } else if (page.nextCursor === null || message.id > oldestOnPage) {
      removeMessage(queryClient, chatId, message.id);
      streamingReplies.finish(message.id);
      notify.error(chatTexts.errorTitle, chatTexts.replyFailed);
    }
  }
}

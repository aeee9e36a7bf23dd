import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { chatLimits } from '../../../shared/constants';
import { trpc } from '../../lib/trpc';

// The chat page's view of the query cache: the sidebar's chat list and each chat's pages of
// messages. Events and mutations write through these helpers so that every change keeps the
// unchanged objects as they were (a memoised bubble re-renders only when its own message
// changes).

export type ChatDto = inferOutput<typeof trpc.chats.list>[number];
export type MessagesPage = inferOutput<typeof trpc.chats.messages>;
export type MessageDto = MessagesPage['items'][number];
type MessagePages = InfiniteData<MessagesPage, number | null>;

export const messagesPageSize = chatLimits.pageDefault;

/** Newest page first; the next page param is the cursor for older messages. */
export function messagesQueryOptions(chatId: number) {
  return trpc.chats.messages.infiniteQueryOptions(
    { chatId, limit: messagesPageSize },
    {
      initialCursor: null,
      getNextPageParam: (page) => page.nextCursor,
      // A chat that could not be read (not found) is not asked for again on every mount.
      retryOnMount: false,
    },
  );
}

export function chatListKey() {
  return trpc.chats.list.queryKey();
}

function messagesKey(chatId: number) {
  return messagesQueryOptions(chatId).queryKey;
}

/** Oldest to newest across the loaded pages. */
export function messagesOf(data: MessagePages | undefined): MessageDto[] {
  if (!data) return [];
  const out: MessageDto[] = [];
  for (let i = data.pages.length - 1; i >= 0; i--) out.push(...data.pages[i]!.items);
  return out;
}

/** Inserts or replaces a message in the newest page that can hold it, keeping id order. */
export function upsertMessage(queryClient: QueryClient, chatId: number, message: MessageDto) {
  queryClient.setQueryData(messagesKey(chatId), (data) => {
    if (!data?.pages.length) return data;
    for (let p = 0; p < data.pages.length; p++) {
      const page = data.pages[p]!;
      const index = page.items.findIndex((item) => item.id === message.id);
      if (index === -1) continue;
      const existing = page.items[index]!;
      if (sameMessage(existing, message)) return data;
      // A final message (complete, stopped, failed) never goes back to streaming: a snapshot
      // read before it finished may arrive after the final state was learnt another way.
      if (existing.status !== 'streaming' && message.status === 'streaming') return data;
      const items = page.items.slice();
      items[index] = message;
      return replacePage(data, p, { ...page, items });
    }
    // New: it belongs to the newest page (ids only grow).
    const newest = data.pages[0]!;
    const items = [...newest.items, message].sort((a, b) => a.id - b.id);
    return replacePage(data, 0, { ...newest, items });
  });
}

/** Adds a message unless the cache has it already (perhaps in a later state, from an event). */
export function insertMessage(queryClient: QueryClient, chatId: number, message: MessageDto) {
  const data = queryClient.getQueryData(messagesKey(chatId));
  if (data?.pages.some((page) => page.items.some((item) => item.id === message.id))) return;
  upsertMessage(queryClient, chatId, message);
}

export function removeMessage(queryClient: QueryClient, chatId: number, messageId: number) {
  queryClient.setQueryData(messagesKey(chatId), (data) => {
    if (!data) return data;
    const p = data.pages.findIndex((page) => page.items.some((item) => item.id === messageId));
    if (p === -1) return data;
    const page = data.pages[p]!;
    return replacePage(data, p, { ...page, items: page.items.filter((item) => item.id !== messageId) });
  });
}

/** A chat just created here: its first messages are known, no need to load them. */
export function seedMessages(queryClient: QueryClient, chatId: number, messages: MessageDto[]) {
  queryClient.setQueryData(messagesKey(chatId), {
    pages: [{ items: [...messages].sort((a, b) => a.id - b.id), nextCursor: null }],
    pageParams: [null],
  });
}

export function forgetMessages(queryClient: QueryClient, chatId: number) {
  queryClient.removeQueries({ queryKey: messagesKey(chatId) });
}

function replacePage(data: MessagePages, index: number, page: MessagesPage): MessagePages {
  const pages = data.pages.slice();
  pages[index] = page;
  return { ...data, pages };
}

function sameMessage(a: MessageDto, b: MessageDto) {
  return a.content === b.content && a.status === b.status && a.role === b.role && a.createdAt === b.createdAt;
}

// The server's order (listChats.ts): pinned first, then most recently active.
export function sortChats(chats: ChatDto[]): ChatDto[] {
  return [...chats].sort(
    (a, b) =>
      Number(b.isPinned) - Number(a.isPinned) ||
      Date.parse(b.updatedAt) - Date.parse(a.updatedAt) ||
      b.id - a.id,
  );
}

export function upsertChat(queryClient: QueryClient, chat: ChatDto) {
  queryClient.setQueryData(chatListKey(), (chats) => {
    if (!chats) return chats;
    const existing = chats.find((item) => item.id === chat.id);
    if (existing && existing.title === chat.title && existing.isPinned === chat.isPinned && existing.updatedAt === chat.updatedAt) {
      return chats;
    }
    return sortChats([...chats.filter((item) => item.id !== chat.id), chat]);
  });
}

export function removeChat(queryClient: QueryClient, chatId: number) {
  queryClient.setQueryData(chatListKey(), (chats) => chats?.filter((item) => item.id !== chatId));
}

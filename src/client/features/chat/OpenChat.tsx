import { Button, Center, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMessageOff } from '@tabler/icons-react';
import { IconPlus } from '@tabler/icons-react';
import { IconRefresh } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { chatTexts, rehearsalChatTexts, stepsOutOfRole } from '../../../shared/texts';
import { stylePanelTriggered } from '../../../shared/writingStyleTriggers';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { useMemoryNotes } from '../memory/useMemoryNotes';
import { useRehearsalOfChat } from '../rehearsals/useRehearsalOfChat';
import { ChatComposer, type ChatComposerHandle } from './ChatComposer';
import { ChatHeader } from './ChatHeader';
import { ChatThread, type ChatThreadHandle } from './ChatThread';
import { insertMessage, messagesOf, messagesQueryOptions, upsertChat, type MessageDto } from './chatCache';
import { errorCode, ChatPageFrame, sendFailure, useOfflineCoach } from './chatPageCommon';
import { streamingReplies } from './streamingReplies';
import { useChatEvents } from './useChatEvents';
import { useConversationExport } from './useConversationExport';
import { useForgetTemporaryChat } from './useForgetTemporaryChat';

// A stored chat (ChatPage.tsx shows it for ?chat={id}), with its virtualised thread, in a chunk of
// its own: a new conversation, what a first visit opens, has no use for either.
// /app's loader loads it with the chat's messages (openChatModule.ts).

// The prep chat's buttons (Rehearse, reflection): loaded with a chat that shows them.
const PrepRehearse = lazy(() => import('../meetings/MeetingAgendaActions').then((module) => ({ default: module.PrepRehearse })));
const PrepReflection = lazy(() => import('../meetings/MeetingAgendaActions').then((module) => ({ default: module.PrepReflection })));
// What only some chats show (a rehearsal's bar and Try again, a reply's 'Memory updated'): loaded
// when a chat has it, not with every chat.
const loadRehearsalChatBar = () => import('../rehearsals/RehearsalChatBar');
const RehearsalChatBar = lazy(() => loadRehearsalChatBar().then((module) => ({ default: module.RehearsalChatBar })));
const TryAgainButton = lazy(() => loadRehearsalChatBar().then((module) => ({ default: module.TryAgainButton })));
const RehearsalScene = lazy(() => loadRehearsalChatBar().then((module) => ({ default: module.RehearsalScene })));
const MemoryUpdatedNote = lazy(() => import('../memory/MemoryUpdatedNote').then((module) => ({ default: module.MemoryUpdatedNote })));
// The writing style panel (its tabs, the e-mail generator's form and Select) shows only once a
// conversation asks for it: loaded then, not with the chat page.
const WritingStylePanel = lazy(() => import('../writingStyle/WritingStylePanel').then((module) => ({ default: module.WritingStylePanel })));

function ChatEventsFollower(props: { chatId: number; onDeleted: () => void }) {
  useChatEvents(props.chatId, { onDeleted: props.onDeleted });
  return null;
}

/** A stored chat: its messages page by page, live events, send and stop. */
export function OpenChat({ chatId, focusMessageId }: { chatId: number; focusMessageId?: number }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const offline = useOfflineCoach();
  const composerRef = useRef<ChatComposerHandle>(null);
  const threadRef = useRef<ChatThreadHandle>(null);
  const query = useInfiniteQuery(messagesQueryOptions(chatId));
  const title = useQuery({ ...trpc.chats.list.queryOptions(), select: (chats) => chats.find((chat) => chat.id === chatId)?.title }).data;
  const messages = useMemo(() => messagesOf(query.data), [query.data]);
  const [pending, setPending] = useState<{ content: string; afterId: number } | null>(null);
  const send = useMutation(trpc.chats.send.mutationOptions());
  const stop = useMutation(trpc.chats.stop.mutationOptions());
  useForgetTemporaryChat(chatId);
  const completedReplies = messages.filter((message) => message.role === 'assistant' && message.status === 'complete').length;
  const memoryNotes = useMemoryNotes(chatId, completedReplies);
  const isRehearsal = useQuery({ ...trpc.chats.list.queryOptions(), select: (chats) => chats.find((chat) => chat.id === chatId)?.isRehearsal === true }).data === true;
  const rehearsal = useRehearsalOfChat(chatId, isRehearsal).data?.rehearsal ?? null;
  // The bar's code is fetched beside the rehearsal it shows.
  useEffect(() => {
    if (isRehearsal) void loadRehearsalChatBar();
  }, [isRehearsal]);
  // A turn the safety line answered (a crisis told in a rehearsal) is not one to practise again.
  const answeredBySafetyLine = useMemo(() => {
    const ids = new Set<number>();
    messages.forEach((message, index) => {
      const next = messages[index + 1];
      if (message.role === 'user' && next?.role === 'assistant' && next.content.startsWith(rehearsalChatTexts.safetyStepOut)) ids.add(message.id);
    });
    return ids;
  }, [messages]);
  const noteFor = useCallback(
    (message: MessageDto) => {
      // Each in a boundary of its own: the thread's rows do not wait for them.
      if (rehearsal && message.role === 'user' && !answeredBySafetyLine.has(message.id)) {
        return (
          <Suspense fallback={null}>
            <TryAgainButton rehearsalId={rehearsal.id} messageId={message.id} />
          </Suspense>
        );
      }
      return memoryNotes.has(message.id) ? (
        <Suspense fallback={null}>
          <MemoryUpdatedNote chatId={chatId} messageId={message.id} />
        </Suspense>
      ) : null;
    },
    [memoryNotes, chatId, rehearsal, answeredBySafetyLine],
  );

  // In a rehearsal the other person speaks with their own name and avatar; the report and a reply
  // that steps out of the role are the coach's.
  const speaker = useMemo(() => (rehearsal ? { name: rehearsal.counterpart.name } : null), [rehearsal]);
  const reportIds = useMemo(() => new Set(rehearsal?.reportMessageIds ?? []), [rehearsal]);
  const speakerFor = useCallback(
    (message: MessageDto) => (speaker && !reportIds.has(message.id) && !stepsOutOfRole(message.content) ? speaker : null),
    [speaker, reportIds],
  );
  const lastUserId = messages.findLast((message) => message.role === 'user')?.id ?? 0;
  const lastReportId = Math.max(0, ...reportIds);

  const streamingReply = messages.findLast((message) => message.status === 'streaming');
  // A sent message stands in for the server's copy until that arrives, and the typing dots for
  // the reply until it starts (or has already finished or failed, as the live events may tell
  // before the send's own answer comes back).
  const arrived = (role: 'user' | 'assistant') =>
    pending !== null && messages.some((message) => message.role === role && message.id > pending.afterId);
  const pendingText = pending && !arrived('user') ? pending.content : null;
  const awaitingReply = pending !== null && !arrived('assistant') && !streamingReplies.finishedAfter(pending.afterId);
  const blocked = awaitingReply || streamingReply !== undefined;
  const stopping = stop.isPending || (stop.data !== undefined && stop.data.messageId === streamingReply?.id);

  const exporter = useConversationExport({ chatId, title: title ?? chatTexts.pageTitle, messages, complete: !query.hasNextPage });

  const loadFailed = query.isError && !query.data;
  const notFound = loadFailed && errorCode(query.error) === 'NOT_FOUND';
  useEffect(() => {
    if ((loadFailed && !notFound) || query.isFetchNextPageError) notify.error(chatTexts.errorTitle, chatTexts.loadMessagesFailed);
  }, [loadFailed, notFound, query.isFetchNextPageError]);

  const onDeleted = useCallback(() => void navigate({ to: '/app', search: { new: true }, replace: true }), [navigate]);
  const onModifyAgenda = useCallback(() => composerRef.current?.fill(chatTexts.modifyAgendaPrefix), []);

  const onSend = (text: string) => {
    if (blocked) return false;
    // Ids grow across chats: anything newer than both what this chat shows and any reply seen
    // finishing (perhaps in a chat opened before) belongs to this send.
    setPending({ content: text, afterId: Math.max(messages[messages.length - 1]?.id ?? 0, streamingReplies.newestFinished()) });
    threadRef.current?.scrollToBottom();
    send.mutate(
      { chatId, content: text },
      {
        onSuccess: ({ chat, userMessage, reply }) => {
          upsertChat(queryClient, chat);
          insertMessage(queryClient, chatId, userMessage);
          // The live events may have finished (or dropped) the reply before this answer came.
          if (!streamingReplies.wasFinished(reply.id)) insertMessage(queryClient, chatId, reply);
        },
        onError: (error) => {
          notify.error(chatTexts.errorTitle, sendFailure(error));
          composerRef.current?.fill(text);
        },
        onSettled: () => setPending(null),
      },
    );
    return true;
  };

  const onStop = () => {
    stop.mutate(
      { chatId },
      {
        onError: (error) => {
          // CONFLICT: the reply finished on its own meanwhile.
          if (errorCode(error) !== 'CONFLICT') notify.error(chatTexts.errorTitle, chatTexts.stopFailed);
        },
      },
    );
  };

  const header = (
    <ChatHeader
      chatTitle={title ?? ''}
      onCopy={() => void exporter.copy()}
      onSave={() => void exporter.save()}
      canExport={messages.length > 0}
      exporting={exporter.exporting}
    />
  );

  if (!query.data) {
    return (
      <ChatPageFrame>
        {header}
        <Center style={{ flex: 1 }} p="md">
          {notFound ? (
            <ChatNotFound />
          ) : loadFailed ? (
            <Stack align="center" gap="sm">
              <Text c="dimmed">{chatTexts.loadMessagesFailed}</Text>
              <Button variant="light" leftSection={<IconRefresh size={16} />} onClick={() => void query.refetch()}>
                {chatTexts.retry}
              </Button>
            </Stack>
          ) : (
            <Loader aria-label={chatTexts.loadingConversation} />
          )}
        </Center>
      </ChatPageFrame>
    );
  }

  return (
    <ChatPageFrame>
      <ChatEventsFollower chatId={chatId} onDeleted={onDeleted} />
      {header}
      {rehearsal && (
        <Suspense fallback={null}>
          <RehearsalChatBar
            rehearsalId={rehearsal.id}
            chatId={chatId}
            name={rehearsal.counterpart.name}
            difficulty={rehearsal.difficulty}
            hasTurn={lastUserId > 0}
            reportCurrent={rehearsal.report !== null && lastReportId > lastUserId}
          />
        </Suspense>
      )}
      <ChatThread
        ref={threadRef}
        messages={messages}
        pending={pendingText}
        awaitingReply={awaitingReply}
        hasOlder={query.hasNextPage}
        loadingOlder={query.isFetchingNextPage}
        olderFailed={query.isFetchNextPageError}
        onLoadOlder={() => {
          if (!query.isFetchingNextPage) void query.fetchNextPage();
        }}
        onModifyAgenda={onModifyAgenda}
        focusMessageId={focusMessageId}
        noteFor={noteFor}
        speakerFor={rehearsal ? speakerFor : undefined}
        typingSpeaker={speaker}
        head={
          rehearsal ? (
            <Suspense fallback={null}>
              <RehearsalScene
                name={rehearsal.counterpart.name}
                role={rehearsal.counterpart.role}
                relationship={rehearsal.counterpart.relationship}
                situation={rehearsal.situation}
                difficulty={rehearsal.difficulty}
              />
            </Suspense>
          ) : undefined
        }
      >
        <Suspense fallback={null}>
          <PrepReflection chatId={chatId} />
          <PrepRehearse chatId={chatId} />
        </Suspense>
        {stylePanelTriggered(messages) && (
          <Suspense fallback={<Loader size="sm" aria-label="Loading" />}>
            <WritingStylePanel />
          </Suspense>
        )}
      </ChatThread>
      <ChatComposer
        ref={composerRef}
        onSend={onSend}
        blocked={blocked}
        streaming={streamingReply !== undefined}
        onStop={onStop}
        stopping={stopping}
        offline={offline}
        onQuickStart={onSend}
        chatId={chatId}
        hint={isRehearsal ? rehearsalChatTexts.composerHint : undefined}
      />
    </ChatPageFrame>
  );
}

function ChatNotFound() {
  return (
    <Stack align="center" gap="sm" maw={360} ta="center">
      <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
        <IconMessageOff size={26} />
      </ThemeIcon>
      <Title order={2} size="h4">
        {chatTexts.chatNotFound}
      </Title>
      <Text c="dimmed" size="sm">
        {chatTexts.chatNotFoundHint}
      </Text>
      <Button leftSection={<IconPlus size={16} />} renderRoot={(rootProps) => <Link {...rootProps} to="/app" search={{ new: true }} />}>
        {chatTexts.newChat}
      </Button>
    </Stack>
  );
}

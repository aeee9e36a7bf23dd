import { Button, Center, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMessageOff } from '@tabler/icons-react';
import { IconPlus } from '@tabler/icons-react';
import { IconRefresh } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { chatTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import classes from './chat.module.css';
import { insertMessage, messagesOf, messagesQueryOptions, seedMessages, upsertChat, type MessageDto } from './chatCache';
import { MemoryUpdatedNote, useMemoryNotes } from '../memory/MemoryUpdatedNote';
import { RehearsalChatBar, TryAgainButton, useRehearsalOfChat } from '../rehearsals/RehearsalChatBar';
import { ChatComposer, type ChatComposerHandle } from './ChatComposer';
import { ChatHeader } from './ChatHeader';
import type { ChatThreadHandle } from './ChatThread';
import { loadChatThread, loadedChatThread } from './chatThreadModule';
import { DraftThread } from './DraftThread';
import { CoachingTools, coachingToolsId } from './CoachingTools';
import { streamingReplies } from './streamingReplies';
import { useChatEvents } from './useChatEvents';
import { useConversationExport } from './useConversationExport';
import { useForgetTemporaryChat } from './useForgetTemporaryChat';
import { stylePanelTriggered } from '../../../shared/writingStyleTriggers';
import { WritingStyleReminder } from '../writingStyle/WritingStyleReminder';

// A stored chat's virtualised thread, loaded on its own (chatThreadModule.ts).
const LazyChatThread = lazy(() => loadChatThread().then((module) => ({ default: module.ChatThread })));
// The writing style panel (its tabs, the e-mail generator's form and Select) shows only once a
// conversation asks for it: loaded then, not with the chat page (issue 10).
const PrepRehearse = lazy(() => import('../meetings/MeetingAgendaActions').then((module) => ({ default: module.PrepRehearse })));
const PrepReflection = lazy(() => import('../meetings/MeetingAgendaActions').then((module) => ({ default: module.PrepReflection })));
const WritingStylePanel = lazy(() => import('../writingStyle/WritingStylePanel').then((module) => ({ default: module.WritingStylePanel })));

/** /app: a new conversation, or the chat given by ?chat={id}. */
export function ChatPage(props: { chatId?: number; messageId?: number }) {
  return (
    <>
      {props.chatId ? <OpenChat key={props.chatId} chatId={props.chatId} focusMessageId={props.messageId} /> : <DraftChat />}
      <WritingStyleReminder />
    </>
  );
}

function errorCode(error: unknown): string | undefined {
  return error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined;
}

// A refused send says why when the reason is the person's to act on (a reply still running, a
// message too long); anything else is the spec's 'Failed to send message'.
function sendFailure(error: unknown): string {
  const code = errorCode(error);
  // The server's own words where they help the person: a reply running, bad input, a spent
  // quota or limit, the database briefly away.
  const explained = ['CONFLICT', 'BAD_REQUEST', 'TOO_MANY_REQUESTS', 'SERVICE_UNAVAILABLE'];
  return code && explained.includes(code) ? errorMessage(error, chatTexts.sendFailed) : chatTexts.sendFailed;
}

function useOfflineCoach() {
  return useQuery(trpc.chats.coachInfo.queryOptions()).data?.kind === 'offline';
}

function PageFrame(props: { children: ReactNode }) {
  return <div className={classes.page}>{props.children}</div>;
}

/** The empty conversation: greeting and coaching tools. The first message creates the chat. */
function DraftChat() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const offline = useOfflineCoach();
  const hash = useLocation({ select: (location) => location.hash });
  const composerRef = useRef<ChatComposerHandle>(null);
  const threadRef = useRef<ChatThreadHandle>(null);
  const [pending, setPending] = useState<string | null>(null);
  // A chat created for a send that then failed is used again, not created twice.
  const createdChatId = useRef<number | null>(null);
  const create = useMutation(trpc.chats.create.mutationOptions());
  const send = useMutation(trpc.chats.send.mutationOptions());
  // Someone who went elsewhere while the first message was on its way is not pulled back.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // The sidebar's GROW, OKRs and SMART links point at the coaching tools.
  useEffect(() => {
    if (hash === coachingToolsId) document.getElementById(coachingToolsId)?.scrollIntoView({ block: 'start' });
  }, [hash]);

  const fail = (message: string, text: string) => {
    notify.error(chatTexts.errorTitle, message);
    setPending(null);
    composerRef.current?.fill(text);
  };

  const start = async (text: string) => {
    setPending(text);
    threadRef.current?.scrollToBottom();
    let chatId = createdChatId.current;
    if (chatId === null) {
      try {
        const chat = await create.mutateAsync({});
        chatId = createdChatId.current = chat.id;
        upsertChat(queryClient, chat);
      } catch {
        return fail(chatTexts.createChatFailed, text);
      }
    }
    try {
      const { chat, userMessage, reply } = await send.mutateAsync({ chatId, content: text });
      upsertChat(queryClient, chat);
      seedMessages(queryClient, chatId, [userMessage, reply]);
      if (mounted.current) await navigate({ to: '/app', search: { chat: chatId }, replace: true });
    } catch (error) {
      fail(sendFailure(error), text);
    }
  };

  const onSend = (text: string) => {
    if (pending !== null) return false;
    void start(text);
    return true;
  };

  return (
    <PageFrame>
      <ChatHeader chatTitle={chatTexts.newChat} onCopy={() => {}} onSave={() => {}} canExport={false} exporting={false} />
      <DraftThread ref={threadRef} pending={pending} awaitingReply={pending !== null}>
        {pending === null && <CoachingTools onStart={onSend} />}
      </DraftThread>
      <ChatComposer
        ref={composerRef}
        onSend={onSend}
        blocked={pending !== null}
        streaming={false}
        onStop={() => {}}
        stopping={false}
        offline={offline}
        onQuickStart={onSend}
      />
    </PageFrame>
  );
}

function ChatEventsFollower(props: { chatId: number; onDeleted: () => void }) {
  useChatEvents(props.chatId, { onDeleted: props.onDeleted });
  return null;
}

/** A stored chat: its messages page by page, live events, send and stop. */
function OpenChat({ chatId, focusMessageId }: { chatId: number; focusMessageId?: number }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const offline = useOfflineCoach();
  const composerRef = useRef<ChatComposerHandle>(null);
  const threadRef = useRef<ChatThreadHandle>(null);
  // Chosen once: a component type that changed would draw the thread anew (losing its place).
  const [ChatThread] = useState(() => loadedChatThread()?.ChatThread ?? LazyChatThread);
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
  const noteFor = useCallback(
    (message: MessageDto) => {
      if (rehearsal && message.role === 'user') return <TryAgainButton rehearsalId={rehearsal.id} messageId={message.id} />;
      return memoryNotes.has(message.id) ? <MemoryUpdatedNote chatId={chatId} messageId={message.id} /> : null;
    },
    [memoryNotes, chatId, rehearsal],
  );

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
      <PageFrame>
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
      </PageFrame>
    );
  }

  return (
    <PageFrame>
      <ChatEventsFollower chatId={chatId} onDeleted={onDeleted} />
      {header}
      {rehearsal && <RehearsalChatBar rehearsalId={rehearsal.id} chatId={chatId} name={rehearsal.counterpart.name} difficulty={rehearsal.difficulty} />}
      <Suspense
        fallback={
          <Center style={{ flex: 1 }} p="md">
            <Loader aria-label={chatTexts.loadingConversation} />
          </Center>
        }
      >
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
      </Suspense>
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
      />
    </PageFrame>
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

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { chatViewTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { seedMessages, upsertChat } from './chatCache';
import { ChatComposer, type ChatComposerHandle } from './ChatComposer';
import { ChatHeader } from './ChatHeader';
import { ChatPageFrame, sendFailure, useOfflineCoach } from './chatPageCommon';
import type { ChatThreadHandle } from './ChatThread';
import { DraftThread } from './DraftThread';
import { CoachingTools, coachingToolsId } from './CoachingTools';
import { loadedOpenChat, loadOpenChat } from './openChatModule';
import { WritingStyleReminder } from '../writingStyle/WritingStyleReminder';

// A stored chat, in a chunk of its own (OpenChat.tsx); /app's loader has usually loaded it.
const LazyOpenChat = lazy(() => loadOpenChat().then((module) => ({ default: module.OpenChat })));
const openChatLoading = (
  <ChatPageFrame>
    <Center style={{ flex: 1 }} p="md">
      <Loader aria-label={chatViewTexts.loadingConversation} />
    </Center>
  </ChatPageFrame>
);

/** /app: a new conversation, or the chat given by ?chat={id}. */
export function ChatPage(props: { chatId?: number; messageId?: number }) {
  // Chosen once for each chat (a component type that changed would draw the chat anew, losing its
  // place): the module itself once loaded, as /app's loader has done before a chat opens. Through
  // React.lazy, even a loaded module suspends once, and the conversation would be missing for a
  // moment: the page that sent a new chat's first message showed neither it nor the input.
  // biome-ignore lint/correctness/useExhaustiveDependencies: chosen anew when the chat changes
  const OpenChat = useMemo(() => loadedOpenChat()?.OpenChat ?? LazyOpenChat, [props.chatId]);
  return (
    <>
      {props.chatId ? (
        <Suspense fallback={openChatLoading}>
          <OpenChat key={props.chatId} chatId={props.chatId} focusMessageId={props.messageId} />
        </Suspense>
      ) : (
        <DraftChat />
      )}
      <WritingStyleReminder />
    </>
  );
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
    notify.error(chatViewTexts.errorTitle, message);
    setPending(null);
    composerRef.current?.fill(text);
  };

  const start = async (text: string) => {
    // The chat this send creates opens next: its code comes while the message is on its way.
    void loadOpenChat().catch(() => undefined);
    setPending(text);
    threadRef.current?.scrollToBottom();
    let chatId = createdChatId.current;
    if (chatId === null) {
      try {
        const chat = await create.mutateAsync({});
        chatId = createdChatId.current = chat.id;
        upsertChat(queryClient, chat);
      } catch {
        return fail(chatViewTexts.createChatFailed, text);
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
    <ChatPageFrame>
      <ChatHeader chatTitle={chatViewTexts.newChat} onCopy={() => {}} onSave={() => {}} canExport={false} exporting={false} />
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
    </ChatPageFrame>
  );
}

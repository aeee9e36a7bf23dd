import { Button, Loader } from '@mantine/core';
import { useImperativeHandle, useLayoutEffect, useRef, type ReactNode, type Ref } from 'react';
import { chatTexts } from '../../../shared/texts';
import classes from './chat.module.css';
import type { MessageDto } from './chatCache';
import { GreetingBubble, MessageBubble, TypingBubble, UserBubble } from './MessageBubble';

export type ChatThreadHandle = { scrollToBottom: () => void };

// Closer than this to the bottom counts as "at the bottom": new content then keeps it in view.
const stickThresholdPx = 80;

/**
 * The scrolling conversation. It follows new content only while the reader is at the bottom,
 * loads older pages when the top comes into view, and keeps the reader's place when they arrive.
 */
export function ChatThread(props: {
  ref?: Ref<ChatThreadHandle>;
  messages: MessageDto[];
  /** A message on its way to the server, shown until the server has it. */
  pending?: string | null;
  /** The typing dots, until the reply to a sent message appears. */
  awaitingReply?: boolean;
  hasOlder?: boolean;
  loadingOlder?: boolean;
  /** Loading an older page failed: wait for a click on the button instead of retrying on view. */
  olderFailed?: boolean;
  onLoadOlder?: () => void;
  onModifyAgenda: () => void;
  /** Shown after the messages (the coaching tools of a new conversation). */
  children?: ReactNode;
  /** Open at the top rather than at the end (a new conversation reads from its greeting). */
  startAtTop?: boolean;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const topRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const lastHeight = useRef(0);
  const firstId = useRef<number | undefined>(undefined);
  const loadOlder = useRef(props.onLoadOlder);
  useLayoutEffect(() => {
    loadOlder.current = props.onLoadOlder;
  });

  const scrollToBottom = () => {
    const el = scrollRef.current;
    if (!el) return;
    stick.current = true;
    el.scrollTop = el.scrollHeight;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrollToBottom only reads refs; the handle never needs to change
  useImperativeHandle(props.ref, () => ({ scrollToBottom }), []);

  // Opening a conversation shows its end.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the thread mounts
  useLayoutEffect(() => {
    if (props.startAtTop) stick.current = false;
    else scrollToBottom();
  }, []);

  // Older messages were put above: move down by what they added, so the reader stays in place.
  const oldestId = props.messages[0]?.id;
  useLayoutEffect(() => {
    const el = scrollRef.current!;
    if (firstId.current !== undefined && oldestId !== undefined && oldestId < firstId.current && !stick.current) {
      el.scrollTop += el.scrollHeight - lastHeight.current;
    }
    firstId.current = oldestId;
    lastHeight.current = el.scrollHeight;
  });

  // Content grows (a streamed reply, a new message) or the view shrinks (a phone's keyboard):
  // follow it when at the bottom.
  useLayoutEffect(() => {
    const el = scrollRef.current!;
    const observer = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
      lastHeight.current = el.scrollHeight;
    });
    observer.observe(contentRef.current!);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // The top in view loads the previous page. A new observer after each change reports at once
  // whether the top is still in view (a short page may need another one).
  const { hasOlder, loadingOlder, olderFailed } = props;
  const messageCount = props.messages.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: messageCount re-arms the observer after each page (see above)
  useLayoutEffect(() => {
    if (!hasOlder || loadingOlder || olderFailed || !topRef.current) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadOlder.current?.();
      },
      { root: scrollRef.current, rootMargin: '300px 0px 0px 0px' },
    );
    observer.observe(topRef.current);
    return () => observer.disconnect();
  }, [hasOlder, loadingOlder, olderFailed, messageCount]);

  // Only the reader scrolling up lets go of the bottom. Growth below does not move scrollTop, so a
  // scroll event that arrives after content grew (our own scrolling, late) cannot unstick it.
  const lastTop = useRef(0);
  const onScroll = () => {
    const el = scrollRef.current!;
    const top = el.scrollTop;
    if (el.scrollHeight - top - el.clientHeight < stickThresholdPx) stick.current = true;
    else if (top < lastTop.current - 1) stick.current = false;
    lastTop.current = top;
  };

  return (
    <div ref={scrollRef} className={classes.thread} onScroll={onScroll}>
      <div
        ref={contentRef}
        className={classes.threadInner}
        role="log"
        aria-label={chatTexts.conversationLabel}
        aria-live="polite"
        aria-relevant="additions"
      >
        {hasOlder ? (
          <div ref={topRef} className={classes.olderRow}>
            {loadingOlder ? (
              <Loader size="sm" aria-label={chatTexts.loadingOlder} />
            ) : (
              <Button variant="subtle" size="xs" onClick={() => props.onLoadOlder?.()}>
                {chatTexts.loadOlder}
              </Button>
            )}
          </div>
        ) : (
          // The greeting opens every conversation; it is not stored.
          <GreetingBubble />
        )}
        {props.messages.map((message) => (
          <MessageBubble key={message.id} message={message} onModifyAgenda={props.onModifyAgenda} />
        ))}
        {props.pending != null && <UserBubble content={props.pending} pending />}
        {props.awaitingReply && <TypingBubble />}
        {props.children}
      </div>
    </div>
  );
}

import { useImperativeHandle, useLayoutEffect, useRef, type ReactNode, type Ref } from 'react';
import { chatViewTexts } from '../../../shared/texts';
import classes from './chat.module.css';
import type { ChatThreadHandle } from './ChatThread';
import { GreetingBubble, TypingBubble, UserBubble } from './Bubbles';

/**
 * A new conversation's thread: the greeting, the message being sent and the typing dots, then what
 * follows (the coaching tools). A few rows at most, drawn as they are, without the virtualised
 * list of ChatThread (loaded only for a stored chat): its measuring when it mounts forced the
 * page's layout three times over in the commit that first draws /app, and its code was a third of
 * the chat's chunk (Total Blocking Time on a phone). Also what /app's prerendered placeholder draws
 * (AppShellPlaceholder).
 */
export function DraftThread(props: {
  ref?: Ref<ChatThreadHandle>;
  pending?: string | null;
  awaitingReply?: boolean;
  children?: ReactNode;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const scrollToBottom = () => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrollToBottom only reads a ref; the handle never needs to change
  useImperativeHandle(props.ref, () => ({ scrollToBottom }), []);
  // The message being sent and the typing dots are kept in view.
  const { pending = null, awaitingReply = false } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a row is added
  useLayoutEffect(() => {
    if (pending !== null || awaitingReply) scrollToBottom();
  }, [pending, awaitingReply]);

  return (
    <div ref={scrollRef} className={classes.thread}>
      <div
        className={`${classes.threadInner} ${classes.plainThread}`}
        role="log"
        aria-label={chatViewTexts.conversationLabel}
        aria-live="polite"
        aria-relevant="additions"
      >
        <GreetingBubble />
        {pending !== null && <UserBubble content={pending} pending />}
        {awaitingReply && <TypingBubble />}
        {props.children}
      </div>
    </div>
  );
}

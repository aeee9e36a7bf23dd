import { Button, Loader } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import {
  Children,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  type ReactNode,
  type Ref,
} from 'react';
import { chatTexts } from '../../../shared/texts';
import classes from './chat.module.css';
import type { MessageDto } from './chatCache';
import { GreetingBubble, TypingBubble, UserBubble, type Speaker } from './Bubbles';
import { MessageBubble } from './MessageBubble';

export type ChatThreadHandle = { scrollToBottom: () => void };

// Closer than this to the bottom counts as "at the bottom": new content then keeps it in view.
const stickThresholdPx = 80;
// Rows drawn beyond each edge of the view: enough for a page-up's worth of keyboard scrolling to
// find its rows drawn, few enough to keep the page small (a few dozen message nodes at most).
const overscanRows = 6;
// The spacing of the thread (Mantine's spacing scale): above the first row, between rows, below
// the last; smaller on phones (the breakpoint of chat.module.css).
const spacing = { wide: { start: 20, gap: 20, end: 32 }, narrow: { start: 16, gap: 16, end: 20 } };

type Row =
  | { key: string; kind: 'head' }
  | { key: string; kind: 'message'; message: MessageDto }
  | { key: string; kind: 'pending'; content: string }
  | { key: string; kind: 'typing' }
  | { key: string; kind: 'after' };

// A first guess at a row's height, before it is drawn and measured: about 90 characters to a
// line of 22 px, plus the bubble's padding and the line of time and actions under a reply.
function estimateRow(row: Row): number {
  if (row.kind !== 'message') return row.kind === 'after' ? 200 : 60;
  const text = row.message.content;
  const lines = text.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / 90)), 0);
  return 22 + lines * 22 + (row.message.role === 'assistant' ? 30 : 26);
}

/**
 * The scrolling conversation, virtualised: only the rows in and near the view are in the page
 * (@tanstack/react-virtual, rows measured as drawn), whatever the length of the chat. It follows
 * new content only while the reader is at the bottom, loads older pages when the top comes into
 * view, and keeps the reader's place when they arrive (the list is anchored to its end).
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
  /** A message to scroll to and mark (a search result); older pages are loaded until it is found. */
  focusMessageId?: number;
  /** Shown under a message (the 'Memory updated' note under a reply that stored a memory). */
  noteFor?: (message: MessageDto) => ReactNode;
  /** What opens the conversation instead of the coach's greeting (a rehearsal's scene). */
  head?: ReactNode;
  /** Who speaks a reply when it is not the coach (the other person of a rehearsal); null for the coach. */
  speakerFor?: (message: MessageDto) => Speaker | null;
  /** Who is typing the reply on its way: the other person of a rehearsal, or the coach (null). */
  typingSpeaker?: Speaker | null;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const loadOlder = useRef(props.onLoadOlder);
  useLayoutEffect(() => {
    loadOlder.current = props.onLoadOlder;
  });
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;
  const space = narrow ? spacing.narrow : spacing.wide;

  const { messages, pending, awaitingReply, hasOlder, loadingOlder, olderFailed } = props;
  // What goes after the messages (a prep chat's reflection, the style panel): one element or several.
  const hasAfter = Children.toArray(props.children).length > 0;
  const rows = useMemo(() => {
    const out: Row[] = [{ key: 'head', kind: 'head' }];
    for (const message of messages) if (message.role !== 'system') out.push({ key: `m${message.id}`, kind: 'message', message });
    if (pending != null) out.push({ key: 'pending', kind: 'pending', content: pending });
    if (awaitingReply) out.push({ key: 'typing', kind: 'typing' });
    if (hasAfter) out.push({ key: 'after', kind: 'after' });
    return out;
  }, [messages, pending, awaitingReply, hasAfter]);

  // A row holding the keyboard focus (a message's copy button) stays in the page when scrolled
  // away, so that the focus is not lost with it.
  const focusedKey = useRef<string | null>(null);
  const rangeExtractor = (range: Range) => {
    const indexes = defaultRangeExtractor(range);
    const focused = focusedKey.current === null ? -1 : rows.findIndex((row) => row.key === focusedKey.current);
    if (focused !== -1 && !indexes.includes(focused)) return [...indexes, focused].sort((a, b) => a - b);
    return indexes;
  };

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => estimateRow(rows[index]!),
    getItemKey: (index) => rows[index]!.key,
    overscan: overscanRows,
    gap: space.gap,
    paddingStart: space.start,
    paddingEnd: space.end,
    // A chat: older pages go in above without moving what the reader sees, a growing last row
    // keeps the bottom in view, and new rows are followed while the reader is at the bottom.
    anchorTo: 'end',
    followOnAppend: true,
    // Opening at the end, the first rows drawn are the last ones (not the top of the chat, drawn
    // and thrown away once the thread has scrolled to its end).
    initialOffset: props.startAtTop ? 0 : Number.MAX_SAFE_INTEGER,
    // The view's size before it is measured, taken as the window's: the first render draws the
    // rows that will be in view (a few too many at most), rather than a guess measured and drawn
    // again in the task that shows the page (a cold load of a chat: that second render was most
    // of its longest task).
    initialRect: typeof window === 'undefined' ? undefined : { width: window.innerWidth, height: window.innerHeight },
    scrollEndThreshold: stickThresholdPx,
    rangeExtractor,
  });

  // Whether the reader was at the bottom at the last scroll (or our own move there).
  const atBottom = useRef(!props.startAtTop);
  const nearBottom = () => {
    const el = scrollRef.current;
    return el !== null && el.scrollHeight - el.scrollTop - el.clientHeight < stickThresholdPx;
  };
  const scrollToBottom = () => {
    atBottom.current = true;
    virtualizer.scrollToEnd();
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrollToBottom only reads refs and the stable virtualizer; the handle never needs to change
  useImperativeHandle(props.ref, () => ({ scrollToBottom }), []);

  // Opening a conversation shows its end.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the thread mounts
  useLayoutEffect(() => {
    if (!props.startAtTop) scrollToBottom();
  }, []);

  // A new last row while at the bottom (a sent message, a reply, the typing dots) is followed,
  // also when it goes in before a row that stays last (the panel after the messages).
  const lastMessageKey = rows.findLast((row) => row.kind !== 'after')?.key;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the last message row changes
  useLayoutEffect(() => {
    if (atBottom.current && !nearBottom()) virtualizer.scrollToEnd();
  }, [lastMessageKey]);

  // The view shrinks (a phone's keyboard) or grows: stay at the bottom if the reader was there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the observer is set up once
  useEffect(() => {
    const el = scrollRef.current!;
    const observer = new ResizeObserver(() => {
      if (atBottom.current && !nearBottom()) virtualizer.scrollToEnd();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    atBottom.current = nearBottom();
  };

  // The top row in the page (drawn, or within the overscan above the view) loads the previous
  // page; after each page this runs again, so a short page that leaves it in view loads another.
  const items = virtualizer.getVirtualItems();
  const headDrawn = items[0]?.index === 0;
  const messageCount = messages.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: messageCount re-checks after each page (see above)
  useEffect(() => {
    if (headDrawn && hasOlder && !loadingOlder && !olderFailed) loadOlder.current?.();
  }, [headDrawn, hasOlder, loadingOlder, olderFailed, messageCount]);

  // A search result: its message is loaded (older pages first, if need be), then brought to the
  // middle of the view, once.
  const { focusMessageId } = props;
  const focusIndex = focusMessageId ? rows.findIndex((row) => row.kind === 'message' && row.message.id === focusMessageId) : -1;
  const focusedOnce = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the virtualizer is stable; runs as pages arrive
  useEffect(() => {
    if (!focusMessageId || focusedOnce.current === focusMessageId) return;
    if (focusIndex === -1) {
      if (hasOlder && !loadingOlder && !olderFailed) loadOlder.current?.();
      return;
    }
    focusedOnce.current = focusMessageId;
    atBottom.current = false;
    virtualizer.scrollToIndex(focusIndex, { align: 'center' });
    // Rows measured as they are drawn move it: settle it again once they are.
    const timers = [100, 400].map((ms) =>
      setTimeout(() => {
        atBottom.current = false;
        virtualizer.scrollToIndex(focusIndex, { align: 'center' });
      }, ms),
    );
    return () => timers.forEach(clearTimeout);
  }, [focusMessageId, focusIndex, hasOlder, loadingOlder, olderFailed]);

  // Which row holds the focus (see rangeExtractor), followed on the list rather than per row.
  const logRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const log = logRef.current!;
    const rowOf = (node: EventTarget | null) => (node instanceof Element ? node.closest<HTMLElement>('[data-row-key]') : null);
    const onFocusIn = (event: FocusEvent) => {
      focusedKey.current = rowOf(event.target)?.dataset.rowKey ?? null;
    };
    const onFocusOut = (event: FocusEvent) => {
      if (rowOf(event.relatedTarget) === null || !log.contains(event.relatedTarget as Node)) focusedKey.current = null;
    };
    log.addEventListener('focusin', onFocusIn);
    log.addEventListener('focusout', onFocusOut);
    return () => {
      log.removeEventListener('focusin', onFocusIn);
      log.removeEventListener('focusout', onFocusOut);
    };
  }, []);

  const renderRow = (row: Row) => {
    switch (row.kind) {
      case 'head':
        return hasOlder ? (
          <div className={classes.olderRow}>
            {loadingOlder ? (
              <Loader size="sm" aria-label={chatTexts.loadingOlder} />
            ) : (
              <Button variant="subtle" size="xs" onClick={() => props.onLoadOlder?.()}>
                {chatTexts.loadOlder}
              </Button>
            )}
          </div>
        ) : (
          // The greeting opens every conversation (a rehearsal's scene opens its own); it is not stored.
          (props.head ?? <GreetingBubble />)
        );
      case 'message': {
        const bubble = <MessageBubble message={row.message} onModifyAgenda={props.onModifyAgenda} speaker={props.speakerFor?.(row.message) ?? null} />;
        const note = props.noteFor?.(row.message);
        const found = row.message.id === focusMessageId;
        if (!note && !found) return bubble;
        return (
          <div className={found ? classes.foundMessage : undefined} data-found={found || undefined}>
            {bubble}
            {note}
          </div>
        );
      }
      case 'pending':
        return <UserBubble content={row.content} pending />;
      case 'typing':
        return <TypingBubble speaker={props.typingSpeaker} />;
      case 'after':
        return props.children;
    }
  };

  return (
    <div ref={scrollRef} className={classes.thread} onScroll={onScroll}>
      <div
        ref={logRef}
        className={classes.threadInner}
        role="log"
        aria-label={chatTexts.conversationLabel}
        aria-live="polite"
        aria-relevant="additions"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((item) => {
          const row = rows[item.index]!;
          return (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className={classes.threadRow}
              style={{ transform: `translateY(${item.start}px)` }}
              data-row-key={row.key}
            >
              {renderRow(row)}
            </div>
          );
        })}
      </div>
    </div>
  );
}


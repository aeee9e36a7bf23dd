import { useCallback, useSyncExternalStore } from 'react';

// The text of replies while they stream, kept apart from the query cache: a token changes one
// entry here and wakes only the bubble that shows that message, instead of rewriting the message
// list (and re-rendering every bubble) per token. The cache gets the final text once, when the
// reply completes. Listeners are woken at most once per animation frame, however many tokens
// arrived in it.

export type StreamingEntry = { readonly text: string; readonly seq: number };

type Listener = () => void;

export function createStreamingReplies() {
  const entries = new Map<number, StreamingEntry>();
  const listeners = new Map<number, Set<Listener>>();
  const dirty = new Set<number>();
  // Replies known to be final (or gone): a late mutation answer must not bring them back as
  // streaming. Bounded: only recent ids matter.
  const finished = new Set<number>();
  let newestFinished = 0;
  let scheduled = false;

  function flush() {
    scheduled = false;
    const ids = [...dirty];
    dirty.clear();
    for (const id of ids) for (const listener of [...(listeners.get(id) ?? [])]) listener();
  }

  function changed(id: number) {
    dirty.add(id);
    if (scheduled) return;
    scheduled = true;
    // A hidden tab gets no animation frames; its bubbles catch up when it is shown again.
    if (typeof requestAnimationFrame === 'function' && !document.hidden) requestAnimationFrame(flush);
    else setTimeout(flush, 50);
  }

  return {
    get: (id: number): StreamingEntry | undefined => entries.get(id),

    /** A reply starts, or a snapshot replaces what we had (after a reconnect). */
    reset(id: number, text: string, seq: number) {
      if (finished.has(id)) return;
      const current = entries.get(id);
      // The text at a lower seq is a prefix of what we have: nothing to take from it.
      if (current && (current.seq > seq || (current.seq === seq && current.text === text))) return;
      entries.set(id, { text, seq });
      changed(id);
    },

    /** Appends a delta; deltas we already have (seq not above ours) are ignored. */
    append(id: number, seq: number, text: string) {
      if (finished.has(id)) return;
      const current = entries.get(id) ?? { text: '', seq: 0 };
      if (seq <= current.seq) return;
      entries.set(id, { text: current.text + text, seq });
      changed(id);
    },

    /**
     * The reply is final and its text now lives in the query cache. The bubble may still draw
     * from here once more before it learns that (the cache and this store wake it separately):
     * it then gets the final text, never an older one. The entry goes a little later.
     */
    finish(id: number, finalText?: string) {
      finished.add(id);
      newestFinished = Math.max(newestFinished, id);
      if (finished.size > 500) finished.delete(finished.values().next().value!);
      if (finalText === undefined) {
        if (entries.delete(id)) changed(id);
        return;
      }
      entries.set(id, { text: finalText, seq: Number.MAX_SAFE_INTEGER });
      changed(id);
      setTimeout(() => {
        if (entries.get(id)?.seq === Number.MAX_SAFE_INTEGER) entries.delete(id);
      }, 10_000);
    },

    wasFinished: (id: number) => finished.has(id),

    /** Whether a reply newer than this message id has finished (or failed and gone). */
    finishedAfter(id: number) {
      return newestFinished > id;
    },

    /** The newest reply known to have finished, in any chat (ids grow across chats). */
    newestFinished: () => newestFinished,

    subscribe(id: number, listener: Listener) {
      let set = listeners.get(id);
      if (!set) {
        set = new Set();
        listeners.set(id, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (!set.size) listeners.delete(id);
      };
    },
  };
}

export type StreamingReplies = ReturnType<typeof createStreamingReplies>;

// One store for the tab. It outlives a chat's view: opening the chat again resubscribes, and the
// server's snapshot replaces whatever text was left here.
export const streamingReplies = createStreamingReplies();

/** The streamed text of one message, re-rendering only when that message changes. */
export function useStreamingText(messageId: number): StreamingEntry | undefined {
  const subscribe = useCallback((listener: Listener) => streamingReplies.subscribe(messageId, listener), [messageId]);
  const read = useCallback(() => streamingReplies.get(messageId), [messageId]);
  return useSyncExternalStore(subscribe, read, read);
}

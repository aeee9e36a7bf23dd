import type { CoachModel, CoachRequest } from '../contract.js';
import { coachReply } from './engine.js';

export const offlineModelName = 'offline-coach';

/**
 * The built-in coach used when no AI key is configured. It answers through the same streaming
 * interface as a model, word by word, so that the chat has a single path for both.
 */
export function createOfflineCoach(options: { delayMs?: number } = {}): CoachModel {
  const delayMs = options.delayMs ?? 12;
  return {
    kind: 'offline',
    model: offlineModelName,
    async *stream(request: CoachRequest) {
      const { signal } = request;
      if (signal?.aborted) return;
      const reply = coachReply({ messages: request.messages, context: request.context, user: request.user });
      for (const piece of wordPieces(reply)) {
        if (delayMs > 0 && !(await pause(delayMs, signal))) return;
        if (signal?.aborted) return;
        yield piece;
      }
    },
  };
}

/** Each word with the whitespace after it; joined, the pieces are exactly the reply. */
export function wordPieces(text: string): string[] {
  return text.split(/(?<=\s)(?=\S)/);
}

/** Waits, or ends early when aborted; false means aborted. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

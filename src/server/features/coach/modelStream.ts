import { ProviderError, type CoachModel, type CoachRequest } from '../../providers/ai/contract.js';

// Every stream from the coach model goes through here (a chat, spoken or phone turn, the
// OpenAI-compatible API, the weekly review, the writing style's email and tone): one stall watch
// for all. A model that sends nothing for the stall timeout (MODEL_STALL_TIMEOUT_SECONDS) has its
// request stopped, and the stream fails with a ModelStalledError (a ProviderError, as a failed
// request is) instead of waiting for ever.

/** The model sent nothing for the stall timeout: its request was stopped. */
export class ModelStalledError extends ProviderError {
  constructor(stallTimeoutMs: number) {
    super(`The model sent nothing for ${Math.round(stallTimeoutMs / 1000)} seconds`, { retryable: true });
  }
}

/** The model's text deltas, in order; `stalled` says whether the stall watch stopped it. */
export type ModelStream = AsyncIterable<string> & { readonly stalled: boolean };

/**
 * Streams `request` from the model with the stall watch, from the first read on. Aborting
 * `request.signal` stops the model's request at once (the stream then ends, as the model's does).
 */
export function streamModel(coach: Pick<CoachModel, 'stream'>, request: CoachRequest, stallTimeoutMs: number): ModelStream {
  let stalled = false;
  async function* deltas(): AsyncGenerator<string> {
    // One timer per stream, not one per token: a token only notes the time, and the timer, when it
    // fires early, waits for the rest of the interval since the latest token.
    let lastActivity = performance.now();
    let timer: NodeJS.Timeout | undefined;
    // The model's request stops when the caller stops it or it stalls. A plain signal rather than
    // AbortSignal.any: the SDK reads it for every chunk, and a composite signal recomputes itself
    // on each read.
    const abort = new AbortController();
    const abortRequest = () => abort.abort();
    const watch = (waitMs: number) => {
      timer = setTimeout(() => {
        const quietFor = performance.now() - lastActivity;
        if (quietFor >= stallTimeoutMs) {
          stalled = true;
          abort.abort();
        } else watch(stallTimeoutMs - quietFor);
      }, waitMs);
    };
    const { signal } = request;
    signal?.addEventListener('abort', abortRequest, { once: true });
    // Stopped before it began: the request starts stopped (the model is not asked).
    if (signal?.aborted) abort.abort();
    watch(stallTimeoutMs);
    try {
      for await (const delta of coach.stream({ ...request, signal: abort.signal })) {
        lastActivity = performance.now();
        if (abort.signal.aborted) break;
        yield delta;
      }
    } catch (error) {
      if (stalled) throw new ModelStalledError(stallTimeoutMs);
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abortRequest);
    }
    if (stalled) throw new ModelStalledError(stallTimeoutMs);
  }
  const stream = deltas();
  return {
    [Symbol.asyncIterator]: () => stream,
    get stalled() {
      return stalled;
    },
  };
}

/**
 * The coach asked in the model region `region` resolves to (the user's organisation's, read while
 * the request is made): for a caller that cannot wait for it before starting the stream.
 */
export function regional(coach: Pick<CoachModel, 'stream'>, region: Promise<string | null>): Pick<CoachModel, 'stream'> {
  return {
    async *stream(request: CoachRequest) {
      yield* coach.stream({ ...request, region: await region });
    },
  };
}

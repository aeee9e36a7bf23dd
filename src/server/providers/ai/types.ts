import type { CoachContext } from '../../features/coach/facts.js';
import type { SafetyCategory } from '../../features/coach/safety/screen.js';

// The one interface the rest of the server uses to get a reply from "the coach", whichever
// engine answers: an OpenAI-compatible model or the built-in offline coach.

export type ChatTurn = { role: 'system' | 'user' | 'assistant'; content: string };

/** What the server knows of the signed-in user (the product spec's entities, User). */
export type CoachUser = { fullName: string; jobTitle: string | null; company: string | null };

export type CoachRequest = {
  /**
   * The conversation, ending with the user's latest turn. A caller that writes its own prompt (the
   * OpenAI-compatible API, the tone description) may start it with system turns.
   */
  messages: ChatTurn[];
  /**
   * What the coach knows for this turn, as typed facts (features/coach/coachContext.ts): a model
   * provider renders it into system turns before `messages`, the offline coach reads it as it is.
   */
  context?: CoachContext;
  /** The offline coach personalises with it; a model gets the same facts from the context. */
  user?: CoachUser;
  /** Aborting ends the stream promptly and quietly: no error reaches the caller. */
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
  /** Called with the provider's own token counts, when it reports them (at the end of the stream). */
  onUsage?: (usage: TokenUsage) => void;
  /**
   * What the safety screen found in the user's latest words, when the model is still asked (a
   * harassment, medical, legal or financial question): a model provider adds the line's instruction
   * for it as a system turn just before that message; the offline coach is never asked then.
   */
  safety?: SafetyCategory;
  /** Where the turn comes from, for metrics and traces only (never sent to the provider). */
  path?: 'chat' | 'api' | 'voice' | 'phone' | 'writing_style' | 'nudge' | 'other';
};

export type TokenUsage = { promptTokens: number; completionTokens: number };

export interface CoachModel {
  readonly kind: 'openai' | 'offline';
  /** The model that answers; a client's own choice of model is never passed through. */
  readonly model: string;
  /** Text deltas in order. Throws ProviderError when the provider fails. */
  stream(request: CoachRequest): AsyncIterable<string>;
}

/**
 * A provider failure. The message is safe to log and never contains the API key; `retryable`
 * says whether the same request may succeed later (rate limits, outages, dropped streams).
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly status?: number;
  readonly retryable: boolean;

  constructor(message: string, options: { status?: number; retryable: boolean }) {
    super(message);
    this.status = options.status;
    this.retryable = options.retryable;
  }
}

import { z } from 'zod';
import type { AuthedContext } from '../../trpc/context.js';
import { protectedProcedure } from '../../trpc/init.js';
import { RateLimitError, voiceSpeechAllowance } from '../limits/index.js';
import { readToken, signToken, tokenNonce } from './signedToken.js';
import { consumeModelTurn, takeModelTurn, type ModelTurn } from '../ai/index.js';

// Paid audio has a budget: each transcription and each speech request takes a point of
// RATE_LIMIT_VOICE_PER_MINUTE and one of the day's MODEL_DAILY_QUOTA turns, before the provider
// is asked; a request that fails gives its daily turn back. Refused: 429 with Retry-After. The
// sentences of a voice turn's reply are the exception: spoken under the turn's speech allowance
// (below), they take their voice point but no daily turn of their own.
export const voiceProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  const turn = claimUploadBudget(ctx) ?? (await takeVoiceBudget(ctx));
  const result = await next();
  if (!result.ok) await turn.refund();
  return result;
});

/**
 * A speech allowance: what a voice turn hands its client (in its transcript event) so that the
 * reply's sentences are spoken under the turn's own daily model turn, not one each (
 * budgets per turn; a reply is spoken in three to six requests). Each request still takes its
 * per-minute voice point. At most voiceSpeechAllowance.requests of them, for the user it was given
 * to, while it is valid; past that, or with a forged or foreign one, a request takes a daily turn
 * as any other.
 */
export function speechAllowanceFor(ctx: AuthedContext, reply = '', speaker: TurnSpeaker = 'coach'): SpeechAllowance {
  const nonce = tokenNonce();
  const expires = Date.now() + voiceSpeechAllowance.validSeconds * 1000;
  const entry = ctx.deps.speechAllowances.add(nonce, reply, expires);
  return {
    token: signToken(ctx.deps, speechPurpose, { u: ctx.user.id, x: expires, n: nonce, ...(speaker === 'counterpart' ? { s: 'counterpart' } : {}) }),
    addText: (text) => {
      if (entry.text.length < 16_000) entry.text += text;
    },
  };
}

/** An allowance's token, and what adds the reply's words to it as the model writes them. */
export type SpeechAllowance = { token: string; addText: (text: string) => void };

/**
 * The reply each allowance covers, as written so far: a sentence is spoken under the allowance only
 * if it is words of that reply, not any text. Kept in the memory of the instance that ran the turn
 * (one store per server, built by compose.ts) for as long as the allowance is valid; a sentence sent
 * to another instance (or after a restart) takes a daily turn of its own, as a request without an
 * allowance does.
 */
export type SpeechAllowances = {
  /** Keeps the reply of a new allowance (and forgets those expired); the entry is written to as the reply grows. */
  add(nonce: string, text: string, expires: number): { text: string; expires: number };
  get(nonce: string): { text: string; expires: number } | undefined;
};

export function createSpeechAllowances(): SpeechAllowances {
  const replies = new Map<string, { text: string; expires: number }>();
  return {
    add(nonce, text, expires) {
      const now = Date.now();
      for (const [key, entry] of replies) if (entry.expires < now) replies.delete(key);
      const entry = { text, expires };
      replies.set(nonce, entry);
      return entry;
    },
    get: (nonce) => replies.get(nonce),
  };
}
const spokenForm = (text: string) => text.replace(/\s+/g, ' ').trim();

const speechPurpose = 'voice-speech';
const speechPayload = z.object({ u: z.number().int(), x: z.number(), n: z.string().min(16), s: z.literal('counterpart').optional() });

/** Who speaks a turn's reply: the coach, or a rehearsal's other person (another voice). */
export type TurnSpeaker = 'coach' | 'counterpart';

/**
 * The voice a sentence is spoken with: under a turn's allowance (the user's own, signed), the
 * voice of whoever spoke the turn, chosen on the server by the chat's role; otherwise the voice
 * asked for, else the coach's.
 */
export function speechVoiceFor(ctx: AuthedContext, asked: string | undefined, allowance: string | undefined): string {
  const { coachVoice, counterpartVoice } = ctx.deps.config.voice;
  const payload = allowance ? readToken(ctx.deps, speechPurpose, allowance, speechPayload) : null;
  if (payload && payload.u === ctx.user.id) return payload.s === 'counterpart' ? counterpartVoice : coachVoice;
  return asked ?? coachVoice;
}

/**
 * Takes the budget of one paid audio request (above): its voice point, then a sentence of the
 * speech allowance when one is given, valid and not spent, else one of the day's model turns.
 * Its `refund` gives back what it took of the day (the turn or the allowance's sentence).
 */
export async function takeVoiceBudget(ctx: AuthedContext, allowance?: string, text?: string): Promise<ModelTurn> {
  await ctx.deps.rateLimits.voice.consume(ctx.user.isDemo ? `demo:${ctx.clientIp}` : `user:${ctx.user.id}`);
  const payload = allowance ? readToken(ctx.deps, speechPurpose, allowance, speechPayload) : null;
  const reply = payload ? ctx.deps.speechAllowances.get(payload.n) : undefined;
  const ofTheReply = text !== undefined && reply !== undefined && spokenForm(text).length > 0 && spokenForm(reply.text).includes(spokenForm(text));
  if (payload && ofTheReply && payload.u === ctx.user.id && payload.x >= Date.now()) {
    const key = `speech:${payload.n}`;
    try {
      await ctx.deps.rateLimits.voiceSpeech.consume(key);
      return { refund: () => ctx.deps.rateLimits.voiceSpeech.refund(key) };
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      // The allowance is spent: this sentence takes a daily turn as any other request.
    }
  }
  await consumeModelTurn(ctx);
  return takeModelTurn(ctx);
}

// An upload's budget is taken before a byte of its body is read (a refused caller's 25 MB are never
// read): the REST route reserves it (reserveUploadBudget), and the procedure that then handles the
// upload claims it instead of taking another. Keyed by the request's headers object, which every
// context made for the request shares.
const reservedUploads = new WeakMap<object, ModelTurn>();

/** Takes the budget of the upload about to be read (429 with Retry-After when refused). */
export async function reserveUploadBudget(ctx: AuthedContext): Promise<void> {
  const turn = await takeVoiceBudget(ctx);
  reservedUploads.set(ctx.headers, turn);
}

/** The budget reserved for this request's upload, handed over once. */
export function claimUploadBudget(ctx: AuthedContext): ModelTurn | undefined {
  const turn = reservedUploads.get(ctx.headers);
  reservedUploads.delete(ctx.headers);
  return turn;
}

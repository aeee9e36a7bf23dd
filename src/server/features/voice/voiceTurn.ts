import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { voiceLimits, type voiceAudioTurnSchema, type voiceHeardSchema, type voiceKeepSchema, type voiceTurnSchema, type VoiceTurnEvent } from '../../../shared/schemas/voice.js';
import { voiceTexts } from '../../../shared/texts/index.js';
import { SpentToken } from '../../db/entities/SpentToken.js';
import type { AppDeps } from '../../deps.js';
import type { AuthedContext } from '../../trpc/context.js';
import { findOwnedChat } from '../chats/index.js';
import { RateLimitError, voiceKeepValidSeconds } from '../limits/index.js';
import { prepareSpokenTurn, recordHeard, runSpokenTurn, saveSpokenTurn, takeTurnBudget, type PreparedTurn, type Speaker } from './spokenTurn.js';
import { readToken, signToken, tokenNonce } from './signedToken.js';
import { transcribe } from './transcribe.js';
import { claimUploadBudget, speechAllowanceFor, takeVoiceBudget, type SpeechAllowance, type TurnSpeaker } from './voiceBudget.js';

// One turn of a browser voice call, through the spoken-turn engine: the budgets are taken first
// (a refusal is a 429 before anything streams), then the reply streams token by token while the
// model writes it, and the turn is saved in the call's chat. Stopping the stream (the caller went
// away) stops the model; the words written so far are kept.
export async function voiceTurn(ctx: AuthedContext, input: z.output<typeof voiceTurnSchema>, signal?: AbortSignal) {
  const chat = input.chatId === null ? null : await findOwnedChat(ctx.em, ctx.user.id, input.chatId);
  const budget = await takeTurnBudget(ctx.deps, { kind: 'user', user: ctx.user, clientIp: ctx.clientIp });
  // No transcript event here: the speech allowance of its reply comes with `done`, which is when a
  // client that sends text turns (an API client) speaks the reply.
  return { events: turnEvents(ctx, chat, input.text, input.provisional, budget, signal, { allowanceWithDone: true }) };
}

/**
 * One turn from the recording itself (POST /api/voice/turn with audio/*, what the browser call
 * sends): one request instead of a transcription and then a turn, and the turn's preparation (the
 * call's history, what the coach knows of the user) done while the provider transcribes, so the
 * model is asked as soon as the transcript is back (the voice latency budget, docs/performance.md). The transcription
 * takes its voice budget first; the turn's budgets are taken only once there are words to answer
 * (a speculative turn given up while transcribing costs no chat turn). Refusals and a failed
 * transcription answer before anything streams; then the events are the transcript, the tokens and
 * `done`. No words: the transcript '' and an empty `done`, nothing saved.
 */
export async function voiceAudioTurn(ctx: AuthedContext, input: z.output<typeof voiceAudioTurnSchema>, signal?: AbortSignal) {
  const chat = input.chatId === null ? null : await findOwnedChat(ctx.em, ctx.user.id, input.chatId);
  const speaker: Speaker = { kind: 'user', user: ctx.user, clientIp: ctx.clientIp };
  const voiceBudget = claimUploadBudget(ctx) ?? (await takeVoiceBudget(ctx));
  const prepared = prepareSpokenTurn(ctx.deps, ctx.em, speaker, chat);
  prepared.catch(() => {}); // awaited below; one failing while the provider transcribes is not unhandled
  try {
    let text: string;
    try {
      text = (await transcribe(ctx, { audio: input.audio, extension: input.extension }, signal)).transcription.slice(0, voiceLimits.maxTurnChars).trim();
    } catch (error) {
      await voiceBudget.refund();
      throw error;
    }
    if (!text) {
      await prepared.catch(() => {});
      return { events: silentTurn(chat?.id ?? null) };
    }
    const budget = await takeTurnBudget(ctx.deps, speaker);
    // The allowance comes with the transcript, before the reply: the reply's words are added to it as the model writes them.
    const speech = speechAllowanceFor(ctx, '', speakerOf(chat));
    return { events: turnEvents(ctx, chat, text, input.provisional, budget, signal, { prepared: await prepared, first: { type: 'transcript', text, allowance: speech.token }, speech }) };
  } catch (error) {
    // The preparation is settled before the error goes on: nothing runs on after the request.
    await prepared.catch(() => {});
    throw error;
  }
}

/** Who answers in the chat: a rehearsal's other person, or the coach (their replies are spoken with different voices). */
const speakerOf = (chat: { isRehearsal: boolean } | null): TurnSpeaker => (chat?.isRehearsal ? 'counterpart' : 'coach');

/** A recording without words: its (empty) transcript and an empty `done`; nothing asked or saved. */
async function* silentTurn(chatId: number | null): AsyncGenerator<VoiceTurnEvent> {
  yield { type: 'transcript', text: '' };
  yield { type: 'done', chatId, messageId: null, reply: '' };
}

async function* turnEvents(
  ctx: AuthedContext,
  chat: Awaited<ReturnType<typeof findOwnedChat>> | null,
  text: string,
  provisional: boolean,
  budget: Awaited<ReturnType<typeof takeTurnBudget>>,
  signal?: AbortSignal,
  /**
   * prepared: the turn's history and facts, loaded while the audio was transcribed; first: an
   * event before the reply's (the transcript); allowanceWithDone: `done` carries the reply's speech
   * allowance (a text turn, which has no transcript event to carry it).
   */
  { prepared, first, allowanceWithDone = false, speech }: { prepared?: PreparedTurn; first?: VoiceTurnEvent; allowanceWithDone?: boolean; speech?: SpeechAllowance } = {},
): AsyncGenerator<VoiceTurnEvent> {
  // Given with `done`, the allowance covers the whole reply at once.
  const allowance = (reply: string) => (allowanceWithDone ? { allowance: speechAllowanceFor(ctx, reply, speakerOf(chat)).token } : {});
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal?.addEventListener('abort', stop);
  const pending: VoiceTurnEvent[] = first ? [first] : [];
  let wake: () => void = () => {};
  let finished = false;
  const push = (event: VoiceTurnEvent) => {
    pending.push(event);
    wake();
  };
  const turn = runSpokenTurn(ctx.deps, ctx.em, {
    path: 'voice',
    speaker: { kind: 'user', user: ctx.user, clientIp: ctx.clientIp },
    chat,
    text,
    budget,
    provisional,
    prepared,
    signal: controller.signal,
    onToken: (token) => {
      speech?.addText(token);
      push({ type: 'token', text: token });
    },
  })
    .then(
      (result) => {
        if (result.outcome === 'failed') push({ type: 'error', message: voiceTexts.aiError });
        else if (result.outcome === 'held') push({ type: 'done', chatId: chat?.id ?? null, messageId: null, reply: result.reply, keep: signKeep(ctx.deps, { u: ctx.user.id, c: chat?.id ?? null, t: text, r: result.reply, cut: result.cut, x: Date.now() + keepValidMs, n: tokenNonce() }), ...allowance(result.reply) });
        else if (result.outcome === 'answered') push({ type: 'done', chatId: result.chat?.id ?? null, messageId: result.messageId, reply: result.reply, ...allowance(result.reply) });
        // discarded: the client has gone, nothing to tell.
      },
      (error: unknown) => {
        ctx.deps.log.error({ err: error }, 'voice turn failed');
        push({ type: 'error', message: voiceTexts.aiError });
      },
    )
    .finally(() => {
      finished = true;
      wake();
    });
  try {
    for (;;) {
      while (pending.length) yield pending.shift()!;
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    controller.abort();
    await turn;
  }
}

/** The user interrupted the coach: the stored reply becomes the part they heard. */
export async function voiceHeard(ctx: AuthedContext, input: z.output<typeof voiceHeardSchema>) {
  const stored = await recordHeard(ctx.deps, ctx.em, ctx.user.id, input.messageId, input.heard);
  if (!stored) throw new TRPCError({ code: 'BAD_REQUEST', message: voiceTexts.heardNotInReply });
  return { success: true as const };
}

// A provisional turn is saved by the client once the user's turn has really ended (POST
// /api/voice/keep), with what it was: the server keeps no state between the two requests (any
// instance may answer the second), so `done` hands the turn over signed with the session secret.
// A token is kept once: its nonce is spent in the limits' store (shared by every instance on
// PostgreSQL) for as long as the token is valid, so a replay saves nothing.
const keepValidMs = voiceKeepValidSeconds * 1000;
const keepPayload = z.object({ u: z.number().int(), c: z.number().int().nullable(), t: z.string(), r: z.string(), cut: z.boolean(), x: z.number(), n: z.string().min(16) });
type KeepPayload = z.infer<typeof keepPayload>;

function signKeep(deps: Pick<AppDeps, 'sessionPassword'>, payload: KeepPayload): string {
  return signToken(deps, 'voice-keep', payload);
}

function readKeep(deps: Pick<AppDeps, 'sessionPassword'>, token: string, userId: number): KeepPayload | null {
  const payload = readToken(deps, 'voice-keep', token, keepPayload);
  if (!payload || payload.u !== userId || payload.x < Date.now()) return null;
  return payload;
}

/** The user's turn did end: the provisional turn is saved, as what was heard of it when given. */
export async function voiceKeep(ctx: AuthedContext, input: z.output<typeof voiceKeepSchema>) {
  const turn = readKeep(ctx.deps, input.keep, ctx.user.id);
  if (!turn) throw new TRPCError({ code: 'BAD_REQUEST', message: voiceTexts.keepInvalid });
  const chat = turn.c === null ? null : await findOwnedChat(ctx.em, ctx.user.id, turn.c);
  let reply = turn.r;
  let cut = turn.cut;
  if (input.heard !== undefined) {
    const said = input.heard.replace(/\s+/g, ' ').trim();
    const whole = turn.r.replace(/\s+/g, ' ').trim();
    if (!whole.startsWith(said)) throw new TRPCError({ code: 'BAD_REQUEST', message: voiceTexts.heardNotInReply });
    if (said !== whole) {
      reply = said;
      cut = true;
    }
  }
  // Spent now, when nothing else can refuse it, in the database (a restart or another instance
  // refuses it too); given back if the save fails.
  const spent = `keep:${turn.n}`;
  if (!(await spendToken(ctx.em, spent, new Date(Date.now() + voiceKeepValidSeconds * 1000)))) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: voiceTexts.keepSpent });
  }
  try {
    const saved = await saveSpokenTurn(ctx.deps, ctx.em, ctx.user, chat, turn.t, reply, cut, voiceTexts.chatTitle);
    return { chatId: saved.chat.id, messageId: saved.messageId };
  } catch (error) {
    await ctx.em.fork().nativeDelete(SpentToken, { id: spent }).catch(() => {});
    throw error;
  }
}

/** Marks a single-use token spent; false when it already was. Tokens past their life are forgotten on the way. */
async function spendToken(em: EntityManager, id: string, expiresAt: Date): Promise<boolean> {
  const fork = em.fork();
  await fork.nativeDelete(SpentToken, { expiresAt: { $lt: new Date() } });
  try {
    await fork.insert(SpentToken, { id, expiresAt });
    return true;
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) return false;
    throw error;
  }
}

import type { EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import { phoneTexts } from '../../../shared/texts/index.js';
import { Chat } from '../../db/entities/Chat.js';
import { Message } from '../../db/entities/Message.js';
import { User } from '../../db/entities/User.js';
import { UserSettings } from '../../db/entities/UserSettings.js';
import type { AppDeps } from '../../deps.js';
import { newVoiceResponse } from '../../providers/telephony/twilioCalls.js';
import type { ChatTurn } from '../../providers/ai/types.js';
import { takeModelTurn, type ModelTurn } from '../ai/modelQuota.js';
import { buildCoachContext, coachRole, voiceReplyRule } from '../coach/coachContext.js';
import { loadCoachFacts } from '../coach/coachFacts.js';
import { coachUserOf } from '../coach/coachUser.js';
import { firstNameOf } from '../coach/offline/language.js';
import { consumeChatMessage } from '../limits/chatLimit.js';
import { newChatIsTemporary } from '../privacy/temporaryChats.js';
import { webhookPaths } from './telephonyProvider.js';

// The phone conversation as TwiML: a greeting, then a <Gather input="speech"> loop whose action is
// the follow-up webhook. Each answered turn is saved in the caller's chat when the caller is a
// user; the chat's id rides in the (signed) action URL, so no call state is kept on the server.

export type WebhookParams = Record<string, string>;
type Ctx = { deps: AppDeps; em: EntityManager; publicUrl: string };

const maxTurns = 20;
const goodbyeWords = /\b(?:bye|goodbye|good bye|hang up|that's all|that is all|nothing else|no thanks)\b/i;
// Twilio waits 15 s for a webhook; the coach gets most of it.
const replyTimeoutMs = 12_000;
const history = 20;

/** The greeting of an incoming call, or of a call the coach placed (`?user=` in its URL). */
export async function answerCall(ctx: Ctx, query: WebhookParams, params: WebhookParams): Promise<string> {
  const user = await callerOf(ctx.em, query, params);
  const response = newVoiceResponse();
  gather(response, ctx, user ? { user: String(user.id) } : {}, phoneTexts.greeting(user ? firstNameOf(user.fullName) : null));
  response.say(phoneTexts.didNotHear);
  response.hangup();
  return response.toString();
}

/** A follow-up: the coach answers what the caller said, and listens again. */
export async function continueCall(ctx: Ctx, query: WebhookParams, params: WebhookParams): Promise<string> {
  const response = newVoiceResponse();
  const said = (params.SpeechResult ?? '').trim().slice(0, 2000);
  const { user, chat } = await conversationOf(ctx.em, query);
  const turn = Number(query.turn ?? '0') || 0;
  if (!said) {
    response.say(phoneTexts.didNotHear);
    response.hangup();
    return response.toString();
  }
  if (goodbyeWords.test(said) && said.split(/\s+/).length <= 6) {
    if (user) await saveTurns(ctx, user, chat, said, phoneTexts.goodbye);
    response.say(phoneTexts.goodbye);
    response.hangup();
    return response.toString();
  }

  // The coach's budgets hold on the phone too: the user's (shared with their chats), or an
  // unknown caller's by number. Refused: a polite goodbye, never an error Twilio would read out.
  const budget = await takeBudget(ctx, user, params);
  if (!budget) {
    response.say(phoneTexts.tooManyTurns);
    response.hangup();
    return response.toString();
  }

  const earlier = chat ? (await ctx.em.find(Message, { chat: chat.id }, { orderBy: { id: 'desc' }, limit: history })).reverse() : [];
  const turns: ChatTurn[] = earlier.filter((m) => m.role !== 'system' && m.content).map((m) => ({ role: m.role, content: m.content }));
  const latest: ChatTurn = { role: 'user', content: said };
  const coachUser = user ? coachUserOf(user) : { fullName: 'the caller', jobTitle: null, company: null };
  // Unknown callers get the generic coach: nothing about any user goes into their context.
  const facts = user ? await loadCoachFacts(ctx.deps, ctx.em, user.id) : { mail: null };
  const contextInput = { user: coachUser, history: [...turns, latest], latestUserMessage: said, ...facts };
  const context = user ? await buildCoachContext(contextInput) : await buildCoachContext(contextInput, [coachRole]);
  let reply = '';
  try {
    for await (const delta of ctx.deps.coach.stream({ messages: [...context, voiceReplyRule, ...turns, latest], user: coachUser, signal: AbortSignal.timeout(replyTimeoutMs), path: 'phone' })) {
      reply += delta;
    }
  } catch (error) {
    ctx.deps.log.warn({ err: error }, 'the coach failed on a phone call');
  }
  reply = reply.trim();
  if (!reply) {
    await budget.refund();
    response.say(phoneTexts.replyFailed);
    response.hangup();
    return response.toString();
  }
  const savedChat = user ? await saveTurns(ctx, user, chat, said, reply) : null;
  if (turn + 1 >= maxTurns) {
    response.say(reply);
    response.say(phoneTexts.goodbye);
    response.hangup();
    return response.toString();
  }
  const next: Record<string, string> = { turn: String(turn + 1) };
  if (savedChat) next.chat = String(savedChat.id);
  gather(response, ctx, next, reply);
  response.say(phoneTexts.goodbye);
  response.hangup();
  return response.toString();
}

function gather(response: ReturnType<typeof newVoiceResponse>, ctx: Ctx, query: Record<string, string>, say: string) {
  const action = `${ctx.publicUrl}${webhookPaths.respond}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`;
  const g = response.gather({ input: ['speech'], action, method: 'POST', speechTimeout: 'auto', language: 'en-US' });
  g.say(say);
}

/**
 * Takes the budgets of one phone turn: a known caller spends their own (the per-minute chat limit
 * and the daily model quota they share with their chats), an unknown caller the chat limit keyed by
 * their number. The turn to give back if the coach fails, or null when a limit refuses.
 */
async function takeBudget(ctx: Ctx, user: User | null, params: WebhookParams): Promise<ModelTurn | null> {
  const number = callerNumberOf(params) ?? 'unknown';
  try {
    if (!user) {
      await ctx.deps.rateLimits.chat.consume(`phone:${number}`);
      return { refund: async () => {} };
    }
    const caller = { deps: ctx.deps, user, clientIp: `phone:${number}` };
    await consumeChatMessage(caller);
    return takeModelTurn(caller);
  } catch (error) {
    if (error instanceof TRPCError && error.code === 'TOO_MANY_REQUESTS') return null;
    throw error;
  }
}

/** The caller's side of the call: From on an incoming call, To on one the coach placed. */
function callerNumberOf(params: WebhookParams): string | null {
  const number = (params.Direction ?? 'inbound').startsWith('outbound') ? params.To : params.From;
  return number && /^\+[1-9]\d{6,14}$/.test(number) ? number : null;
}

async function callerOf(em: EntityManager, query: WebhookParams, params: WebhookParams): Promise<User | null> {
  if (query.user && /^\d+$/.test(query.user)) return em.findOne(User, Number(query.user));
  // An incoming call: the caller's number against the users' profile phones. A number two
  // users share identifies nobody.
  const from = callerNumberOf(params);
  if (!from) return null;
  const matches = await em.find(UserSettings, { phone: from }, { populate: ['user'], limit: 2 });
  return matches.length === 1 ? (matches[0]!.user as User) : null;
}

async function conversationOf(em: EntityManager, query: WebhookParams): Promise<{ user: User | null; chat: Chat | null }> {
  if (query.chat && /^\d+$/.test(query.chat)) {
    const chat = await em.findOne(Chat, Number(query.chat), { populate: ['owner'] });
    if (chat) return { user: chat.owner as User, chat };
  }
  if (query.user && /^\d+$/.test(query.user)) return { user: await em.findOne(User, Number(query.user)), chat: null };
  return { user: null, chat: null };
}

async function saveTurns(ctx: Ctx, user: User, chat: Chat | null, said: string, reply: string): Promise<Chat> {
  // A call's chat follows the user's storeChatHistory like any new chat.
  const isTemporary = chat === null && (await newChatIsTemporary(ctx.em, user.id));
  const saved = await ctx.em.transactional(async (em) => {
    const title = phoneTexts.phoneChatTitle(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    const owned = chat ? em.merge(chat) : em.create(Chat, { owner: user.id, title, isPinned: false, isTemporary });
    owned.updatedAt = new Date();
    const userMessage = em.create(Message, { chat: owned, role: 'user', content: said, status: 'complete' });
    const coachMessage = em.create(Message, { chat: owned, role: 'assistant', content: reply, status: 'complete' });
    await em.flush();
    return { chat: owned, userMessage, coachMessage };
  });
  ctx.deps.chatBus.publish(saved.chat.id, { type: 'message.created', message: saved.userMessage.toDto() });
  ctx.deps.chatBus.publish(saved.chat.id, { type: 'message.created', message: saved.coachMessage.toDto() });
  return saved.chat;
}


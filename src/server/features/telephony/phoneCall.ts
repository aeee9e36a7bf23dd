import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { organisationTexts, phoneTexts } from '../../../shared/texts/index.js';
import { Chat } from '../../db/entities/Chat.js';
import { PhoneCall } from '../../db/entities/PhoneCall.js';
import { Rehearsal } from '../../db/entities/Rehearsal.js';
import { User } from '../../db/entities/User.js';
import { organisationPolicyOf } from '../../db/organisationPolicy.js';
import { UserSettings } from '../../db/entities/UserSettings.js';
import type { AppDeps } from '../../deps.js';
import { newVoiceResponse } from '../../providers/telephony/twilioCalls.js';
import { firstNameOf } from '../../providers/ai/offline/language.js';
import { userIdOfVerifiedPhone } from '../phone/index.js';
import { chatOfCallQuery } from './chatCall.js';
import { boundRelayUrl } from './relayGrant.js';

// A call answered (incoming, or one the coach placed): the call's state is made once per CallSid
// (phone_call), deciding who the caller is, and the call is handed to ConversationRelay, which
// speaks and listens while the relay socket (conversationRelay.ts) streams the coach's words.
//
// Who the caller is: the user who asked the coach to call (the signed URL of a placed
// call); on an incoming call the user whose VERIFIED number is `From` only when Twilio attests it
// fully (StirVerstat TN-Validation-Passed-A); a verified number without that attestation may key in
// its account's phone PIN; anyone else is an unknown caller. A replay of the webhook finds the
// state already made and changes nothing.

export type WebhookParams = Record<string, string>;
type Ctx = { deps: Pick<AppDeps, 'config' | 'log' | 'orm' | 'rateLimits' | 'sessionPassword'>; em: EntityManager; publicUrl: string };

/** Twilio's full attestation of the caller ID (SHAKEN/STIR). */
export const fullAttestation = 'TN-Validation-Passed-A';

const callSidPattern = /^CA[0-9a-fA-F]{32}$/;

export async function answerCall(ctx: Ctx, query: WebhookParams, params: WebhookParams): Promise<string> {
  const response = newVoiceResponse();
  const callSid = params.CallSid ?? '';
  if (!callSidPattern.test(callSid)) {
    response.hangup();
    return response.toString();
  }
  // A call about one chat (chatCall.ts): the chat is bound by the URL's grant, or the call is refused.
  const boundChat = chatOfCallQuery(ctx.deps, query);
  if (boundChat === 'refused') {
    response.hangup();
    return response.toString();
  }
  const call = await callStateOf(ctx.em, callSid, query, params, boundChat);
  // The caller's organisation turned phone calls with the coach off: a member calling from their
  // verified, fully attested number (or a call placed before the change) hears why, and the call
  // ends. A number not attested is greeted as every unknown caller (what it hears must not tell that
  // the number is verified); its right PIN then ends the call the same way (relayPin.ts).
  if (call.owner && !(await organisationPolicyOf(ctx.em, call.owner.id)).phoneCalls) {
    response.say(organisationTexts.member.callsTurnedOffSpoken);
    response.hangup();
    return response.toString();
  }
  const owner = call.owner ? await ctx.em.findOne(User, call.owner.id) : null;
  const chat = owner && call.chat ? await ctx.em.findOne(Chat, { id: call.chat.id, owner: owner.id }) : null;
  // A rehearsal held by phone: the other person answers, with a voice other than the coach's.
  const rehearsal = owner && chat?.isRehearsal ? await ctx.em.findOne(Rehearsal, { chat: chat.id, owner: owner.id }) : null;
  const { relay } = ctx.deps.config.twilio;
  // Every caller not yet known hears the same words: whether the number is verified, or has a PIN,
  // is not told to whoever holds (or spoofs) it.
  const greeting = rehearsal
    ? phoneTexts.rehearsalGreeting(rehearsal.counterpartName)
    : owner && chat
      ? phoneTexts.chatGreeting(firstNameOf(owner.fullName), chat.title)
      : owner
        ? phoneTexts.greeting(firstNameOf(owner.fullName))
        : (relay.welcomeGreeting ?? phoneTexts.welcomePin);
  const voice = rehearsal ? { voice: relay.counterpart.voice, ttsProvider: relay.counterpart.ttsProvider } : relay.voice ? { voice: relay.voice } : {};
  const connect = response.connect();
  const conversation = connect.conversationRelay({
    url: boundRelayUrl(ctx.deps, ctx.publicUrl, call),
    welcomeGreeting: greeting,
    language: relay.language,
    ...voice,
    dtmfDetection: true,
    interruptible: 'any',
  });
  // Identifies the call to the relay socket, with the CallSid of its setup message.
  conversation.parameter({ name: 'callId', value: String(call.id) });
  return response.toString();
}

/** The call's state, made by the first webhook of the call; a later (or replayed) one reads it. */
async function callStateOf(em: EntityManager, callSid: string, query: WebhookParams, params: WebhookParams, chatId: number | null): Promise<PhoneCall> {
  const existing = await em.findOne(PhoneCall, { callSid });
  if (existing) return existing;
  const outbound = (params.Direction ?? 'inbound').startsWith('outbound');
  let owner: number | null = null;
  let pinUser: number | null = null;
  if (outbound && query.user && /^\d{1,12}$/.test(query.user)) {
    owner = (await em.findOne(User, Number(query.user)))?.id ?? null;
  } else if (!outbound) {
    const from = params.From ?? '';
    const candidate = /^\+[1-9]\d{6,14}$/.test(from) ? await userIdOfVerifiedPhone(em, from) : null;
    if (candidate !== null && params.StirVerstat === fullAttestation) owner = candidate;
    else if (candidate !== null) {
      const settings = await em.findOne(UserSettings, { user: candidate });
      if (settings?.phonePinHash) pinUser = candidate;
    }
  }
  // The chat a placed call is about: only the caller's own (its grant was checked by the caller of this).
  const chat = outbound && owner !== null && chatId !== null ? ((await em.findOne(Chat, { id: chatId, owner }))?.id ?? null) : null;
  try {
    const call = em.create(PhoneCall, { callSid, owner, pinUser, chat, direction: outbound ? 'outbound' : 'inbound' });
    await em.flush();
    return call;
  } catch (error) {
    // The same webhook twice at once: the first made the state.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    const fork = em.fork();
    return fork.findOneOrFail(PhoneCall, { callSid });
  }
}

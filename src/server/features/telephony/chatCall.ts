import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { organisationTexts, phoneTexts } from '../../../shared/texts/index.js';
import { Chat } from '../../db/entities/Chat.js';
import { organisationPolicyOf } from '../../db/organisationPolicy.js';
import type { AppDeps } from '../../deps.js';
import { RateLimitError } from '../limits/index.js';
import { verifiedPhoneOf } from '../phone/index.js';
import { telephonyProviderOf, telephonySettingsOf, webhookPaths } from './telephonyProvider.js';

// A call about one chat of the user's (a rehearsal held by phone, a nudge delivered by phone): the
// coach (or, in a rehearsal, the other person) calls the user's verified number, and every spoken
// turn of the call goes into that chat through the one spoken-turn engine (the relay,
// conversationRelay.ts). The chat rides in the call's webhook URL with the user, an expiry and an
// HMAC of the three under the session secret, inside the URL Twilio signs: the webhook that answers
// the call (phoneCall.ts) binds the call's state to that chat once, and only when it is the user's
// own. The relay then reads the chat from the call's state, never from anything the caller sends.

/** Why a call about a chat was not placed; `message` is for the person (the rehearsal's error, the run's reason). */
export type ChatCallRefusal = 'not_configured' | 'turned_off' | 'chat_not_found' | 'no_verified_phone' | 'country_not_allowed' | 'rate_limited' | 'provider_failed';

export class ChatCallRefused extends Error {
  constructor(
    readonly refusal: ChatCallRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'ChatCallRefused';
  }
}

/** How long the call's webhook URL binds the chat: Twilio fetches it when the call is answered (it rings up to a minute). */
const chatCallGrantSeconds = 15 * 60;

function chatCallMac(deps: Pick<AppDeps, 'sessionPassword'>, userId: number, chatId: number, expires: number): string {
  return crypto.createHmac('sha256', deps.sessionPassword).update(`chat-call\0${userId}\0${chatId}\0${expires}`).digest('hex');
}

/** The webhook URL (`path`: the call's TwiML, or its status callback) of a call about `chatId`, placed for `userId`. */
export function chatCallUrl(deps: Pick<AppDeps, 'sessionPassword'>, publicUrl: string, userId: number, chatId: number, path: string = webhookPaths.incoming): string {
  const expires = Math.floor(Date.now() / 1000) + chatCallGrantSeconds;
  const query = new URLSearchParams({ user: String(userId), chat: String(chatId), exp: String(expires), grant: chatCallMac(deps, userId, chatId, expires) });
  return `${publicUrl}${path}?${query}`;
}

/**
 * The chat a (Twilio-signed) call webhook's query binds: null when it names none, 'refused' when it
 * names one without a valid grant for that user (changed, expired or made up).
 */
export function chatOfCallQuery(deps: Pick<AppDeps, 'sessionPassword'>, query: Record<string, string>): number | null | 'refused' {
  if (query.chat === undefined) return null;
  const { user = '', chat, exp = '', grant = '' } = query;
  if (!/^\d{1,12}$/.test(user) || !/^\d{1,12}$/.test(chat) || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(grant)) return 'refused';
  const expires = Number(exp);
  const now = Math.floor(Date.now() / 1000);
  if (expires < now || expires > now + chatCallGrantSeconds) return 'refused';
  const expected = Buffer.from(chatCallMac(deps, Number(user), Number(chat), expires), 'hex');
  return crypto.timingSafeEqual(expected, Buffer.from(grant, 'hex')) ? Number(chat) : 'refused';
}

/**
 * Asks Twilio to call the user's verified number about one of their chats. Throws ChatCallRefused
 * (with the reason for the person) when it cannot be placed.
 */
export async function placeChatCall(
  deps: Pick<AppDeps, 'config' | 'sessionPassword' | 'rateLimits' | 'providers' | 'log'>,
  em: EntityManager,
  userId: number,
  chatId: number,
  /** A status callback of the caller's own (bound to the chat like the call's URL): told how the call ended. */
  options: { statusPath?: string } = {},
): Promise<{ callSid: string }> {
  const settings = telephonySettingsOf(deps);
  if (!settings) throw new ChatCallRefused('not_configured', phoneTexts.notConfigured);
  // The user's organisation may have turned phone calls with the coach off: no call is placed.
  if (!(await organisationPolicyOf(em, userId)).phoneCalls) throw new ChatCallRefused('turned_off', organisationTexts.member.callsTurnedOff);
  const chat = await em.findOne(Chat, { id: chatId, owner: userId });
  if (!chat) throw new ChatCallRefused('chat_not_found', phoneTexts.chatNotFound);
  // The coach calls only the account's own verified number.
  const phone = await verifiedPhoneOf(em, userId);
  if (!phone) throw new ChatCallRefused('no_verified_phone', phoneTexts.chatCallNoVerifiedPhone);
  // Toll fraud: only the countries the operator allows.
  if (!settings.allowedCountryPrefixes.some((prefix) => phone.startsWith(prefix))) throw new ChatCallRefused('country_not_allowed', phoneTexts.chatCallCountryNotAllowed);
  // Every call rings a real phone and costs money: the user's calls limit (rateLimits.ts).
  try {
    await deps.rateLimits.calls.consume(`user:${userId}`);
  } catch (error) {
    if (error instanceof RateLimitError) throw new ChatCallRefused('rate_limited', phoneTexts.chatCallRateLimited);
    throw error;
  }
  try {
    const callSid = await telephonyProviderOf(deps).placeCall({
      to: phone,
      url: chatCallUrl(deps, settings.publicUrl, userId, chatId),
      statusCallback: options.statusPath ? chatCallUrl(deps, settings.publicUrl, userId, chatId, options.statusPath) : `${settings.publicUrl}${webhookPaths.status}`,
    });
    return { callSid };
  } catch (error) {
    deps.log.warn({ err: error, chatId }, 'twilio refused the call about a chat');
    throw new ChatCallRefused('provider_failed', phoneTexts.providerFailed);
  }
}

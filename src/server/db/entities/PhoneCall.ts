import { defineEntity, p } from '@mikro-orm/core';
import { Chat } from './Chat.js';
import { User } from './User.js';

// A phone call's state on the server, keyed by Twilio's CallSid. Webhooks and
// the ConversationRelay socket are bound to it: who the caller is (decided once, from an attested
// verified caller ID, the phone PIN, or the user who asked the coach to call), the call's chat,
// and the turn or step reached, so a replayed signed webhook or handshake changes nothing.
export const PhoneCallSchema = defineEntity({
  name: 'PhoneCall',
  tableName: 'phone_call',
  indexes: [{ name: 'phone_call_owner_idx', properties: ['owner'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    callSid: p.string().length(64).unique(),
    // The identified caller; null for an unknown caller (the generic coach, nothing of any user).
    owner: () => p.manyToOne(User).nullable().deleteRule('cascade'),
    // The user whose verified number called without attestation: identified only by their PIN.
    pinUser: () => p.manyToOne(User).nullable().deleteRule('set null'),
    pinAttempts: p.integer().default(0),
    direction: p.string().length(20),
    chat: () => p.manyToOne(Chat).nullable().deleteRule('set null'),
    // Spoken turns answered, or the step of a goal check-in call reached.
    turns: p.integer().default(0),
    // When the relay socket took the call: a second setup for the same call is refused.
    relayStartedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class PhoneCall extends PhoneCallSchema.class {}
PhoneCallSchema.setClass(PhoneCall);

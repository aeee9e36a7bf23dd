import { defineEntity, p } from '@mikro-orm/core';
import { User } from './User.js';

// The pending SMS code of a user's phone verification: at most one per user, a new code
// replaces the old. The code is kept only as an HMAC bound to the user and the number (never sent
// back, never exported); it works for 10 minutes and 5 tries. Deleting the account deletes it.
export const PhoneVerificationSchema = defineEntity({
  name: 'PhoneVerification',
  tableName: 'phone_verification',
  properties: {
    user: () => p.oneToOne(User).owner().primary().deleteRule('cascade'),
    phone: p.string().length(40),
    codeHash: p.string().length(64).hidden(),
    attempts: p.integer().default(0),
    expiresAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class PhoneVerification extends PhoneVerificationSchema.class {}
PhoneVerificationSchema.setClass(PhoneVerification);

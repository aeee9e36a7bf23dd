import { defineEntity, p } from '@mikro-orm/core';
import { User } from './User.js';

// A Graph change-notification subscription for a user's events, made when PUBLIC_URL is
// https. The clientState is a secret Graph echoes in every notification: only its hash is kept.
// changedAt moves on each notification, which ends every instance's cached calendar of the user.
export const CalendarSubscriptionSchema = defineEntity({
  name: 'CalendarSubscription',
  tableName: 'calendar_subscription',
  properties: {
    id: p.integer().primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade').unique(),
    graphSubscriptionId: p.string().length(200).unique(),
    clientStateHash: p.string().length(64).hidden(),
    expiresAt: p.datetime(),
    changedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class CalendarSubscription extends CalendarSubscriptionSchema.class {}
CalendarSubscriptionSchema.setClass(CalendarSubscription);

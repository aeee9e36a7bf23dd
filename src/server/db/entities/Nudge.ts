import { defineEntity, p } from '@mikro-orm/core';
import type { NudgeChannel, NudgeSettings } from '../../../shared/schemas/nudges.js';
import { nudgeKinds, nudgeStatuses } from '../../../shared/schemas/nudges.js';
import { Chat } from './Chat.js';
import { User } from './User.js';

// A user's nudge settings; a user without a row has the defaults.
export const NudgeSettingSchema = defineEntity({
  name: 'NudgeSetting',
  tableName: 'nudge_setting',
  properties: {
    user: () => p.oneToOne(User).owner().primary().deleteRule('cascade'),
    settings: p.json<NudgeSettings>(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class NudgeSetting extends NudgeSettingSchema.class {}
NudgeSettingSchema.setClass(NudgeSetting);

// One nudge, planned or asked for: the history the user sees. Its job is in the job queue (pg-boss,
// jobs/jobQueue.ts), due at dueAt; the run ends 'sent', 'skipped' or 'failed', or stays 'queued'
// with a later dueAt (quiet hours, a retry's back-off). lockedUntil is no longer used (the queue
// holds the lease).
export const NudgeRunSchema = defineEntity({
  name: 'NudgeRun',
  tableName: 'nudge_run',
  indexes: [
    { name: 'nudge_run_owner_idx', properties: ['owner', 'id'] },
    { name: 'nudge_run_due_idx', properties: ['dueAt'], where: `"status" = 'queued'` },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    kind: p.enum(nudgeKinds),
    status: p.enum(nudgeStatuses).default('queued'),
    trigger: p.enum(['scheduled', 'manual'] as const),
    channels: p.json<NudgeChannel[]>(),
    reason: p.string().length(500).nullable(),
    chat: () => p.manyToOne(Chat).nullable().deleteRule('set null'),
    dueAt: p.datetime(),
    lockedUntil: p.datetime().nullable(),
    attempts: p.integer().default(0),
    /** A scheduled meeting brief's (or an automatic debrief's) Graph event. */
    eventId: p.string().length(512).nullable(),
    /** A nudge written before it was queued (an automatic debrief's): its title; the others are titled as they run. */
    title: p.string().length(300).nullable(),
    /** The demo's example weekly review (the template's, or a visitor's copy of it): never queued. */
    isSample: p.boolean().default(false),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class NudgeRun extends NudgeRunSchema.class {}
NudgeRunSchema.setClass(NudgeRun);

// A browser's web push subscription: where the push service takes the user's nudges.
// The endpoint is unique: a browser that subscribes again moves it to its current account.
export const PushSubscriptionSchema = defineEntity({
  name: 'PushSubscription',
  tableName: 'push_subscription',
  indexes: [{ name: 'push_subscription_owner_idx', properties: ['owner'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    endpoint: p.string().length(1000).unique(),
    p256dh: p.string().length(200),
    auth: p.string().length(100),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class PushSubscription extends PushSubscriptionSchema.class {}
PushSubscriptionSchema.setClass(PushSubscription);

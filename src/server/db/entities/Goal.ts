import { defineEntity, p } from '@mikro-orm/core';
import { goalFrameworks, reminderCadences } from '../../../shared/schemas/goals.js';
import { Chat } from './Chat.js';
import { User } from './User.js';

// A goal the user keeps: from the coach's SMART, OKR or GROW result, or by hand. Its
// key results carry their check-ins; editing a goal never removes a key result with history.
export const GoalSchema = defineEntity({
  name: 'Goal',
  tableName: 'goal',
  indexes: [
    { name: 'goal_owner_idx', properties: ['owner'] },
    // The reminder job claims due goals by this (reminders.ts).
    { name: 'goal_next_reminder_idx', properties: ['nextReminderAt'] },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    chat: () => p.manyToOne(Chat).nullable().deleteRule('set null'),
    framework: p.enum(goalFrameworks),
    title: p.string().length(200),
    dueDate: p.string().length(10),
    cadence: p.enum(reminderCadences).default('weekly'),
    nextReminderAt: p.datetime().nullable(),
    doneAt: p.datetime().nullable(),
    // When, and in which chat, the coach asked about this goal for want of a check-in: asked once
    // (until the next check-in), and an answer in that chat is read as a check-in.
    coachAskedAt: p.datetime().nullable(),
    coachAskedChat: () => p.manyToOne(Chat).nullable().deleteRule('set null'),
    /** A demo sample (the demo template's, or a visitor's copy of one). */
    isSample: p.boolean().default(false),
    /** A visitor's copy of a template sample: the template row's id, which keeps naming the copy (trpc/sampleCopies.ts). */
    sampleOf: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class Goal extends GoalSchema.class {}
GoalSchema.setClass(Goal);

export const KeyResultSchema = defineEntity({
  name: 'KeyResult',
  tableName: 'key_result',
  indexes: [{ name: 'key_result_goal_idx', properties: ['goal'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    goal: () => p.manyToOne(Goal).deleteRule('cascade'),
    position: p.integer(),
    title: p.string().length(200),
    start: p.double(),
    target: p.double(),
    unit: p.string().length(40).default(''),
  },
});
export class KeyResult extends KeyResultSchema.class {}
KeyResultSchema.setClass(KeyResult);

export const CheckInSchema = defineEntity({
  name: 'CheckIn',
  tableName: 'check_in',
  indexes: [{ name: 'check_in_key_result_idx', properties: ['keyResult', 'createdAt'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    keyResult: () => p.manyToOne(KeyResult).deleteRule('cascade'),
    value: p.double(),
    note: p.string().length(500).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class CheckIn extends CheckInSchema.class {}
CheckInSchema.setClass(CheckIn);

// An in-app reminder to check in, made by the reminder job and shown on the user's next visit.
export const GoalReminderSchema = defineEntity({
  name: 'GoalReminder',
  tableName: 'goal_reminder',
  indexes: [{ name: 'goal_reminder_unseen_idx', properties: ['owner', 'seenAt'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    goal: () => p.manyToOne(Goal).deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
    seenAt: p.datetime().nullable(),
  },
});
export class GoalReminder extends GoalReminderSchema.class {}
GoalReminderSchema.setClass(GoalReminder);

import type { EntityManager } from '@mikro-orm/core';
import { lockOwner } from '../../db/ownerLock.js';
import { refuseOutsideWorld } from '../../trpc/init.js';
import { TRPCError } from '@trpc/server';
import { goalLimits, type GoalView } from '../../../shared/schemas/goals.js';
import type { z } from 'zod';
import type { checkInSchema, createGoalSchema, updateGoalSchema } from '../../../shared/schemas/goals.js';
import { goalTexts } from '../../../shared/texts/index.js';
import { CheckIn, Goal, KeyResult } from '../../db/entities/Goal.js';
import type { AuthedContext } from '../../trpc/context.js';
import { findOwnedChat } from '../chats/index.js';
import { goalViews } from './goalViews.js';

// Goals are read and written through their owner: another user's goal is answered exactly like a
// missing one (404). Editing keeps every key result that has check-ins: history is never lost.

const weekMs = 7 * 24 * 60 * 60 * 1000;

type CreateGoal = z.output<typeof createGoalSchema>;
type UpdateGoal = z.output<typeof updateGoalSchema>;
type CheckInInput = z.output<typeof checkInSchema>;

export async function listGoals(ctx: AuthedContext, input: { history: GoalView['history'] } = { history: 'full' }): Promise<{ goals: GoalView[] }> {
  const goals = await ctx.em.find(Goal, { owner: ctx.user.id }, { orderBy: { doneAt: 'asc nulls first', dueDate: 'asc', id: 'asc' } });
  return { goals: await goalViews(ctx.em, goals, new Date(), input.history) };
}

export async function getGoal(ctx: AuthedContext, input: { goalId: number }): Promise<GoalView> {
  const [view] = await goalViews(ctx.em, [await ownGoal(ctx, input.goalId)]);
  return view!;
}

/** An active goal of this chat exactly like the input (title, framework, due date, key results), if there is one. */
async function sameGoalOfChat(em: EntityManager, userId: number, chatId: number, input: CreateGoal): Promise<number | null> {
  const candidates = await em.find(Goal, { owner: userId, chat: chatId, title: input.title, framework: input.framework, dueDate: input.dueDate, doneAt: null });
  for (const goal of candidates) {
    const keyResults = await em.find(KeyResult, { goal: goal.id }, { orderBy: { position: 'asc' } });
    const same =
      keyResults.length === input.keyResults.length &&
      keyResults.every((kr, i) => {
        const other = input.keyResults[i]!;
        return kr.title === other.title && Number(kr.start) === other.start && Number(kr.target) === other.target && kr.unit === other.unit;
      });
    if (same) return goal.id;
  }
  return null;
}

export async function createGoal(ctx: AuthedContext, input: CreateGoal): Promise<GoalView> {
  if (input.cadence === 'weekly_call') refuseOutsideWorld(ctx, 'goalCalls');
  // A chat the goal came from must be the user's own.
  const chat = input.chatId ? await findOwnedChat(ctx.em, ctx.user.id, input.chatId) : null;
  const now = new Date();
  // The count and the insert under the owner's row lock: parallel creates cannot pass the limit.
  const goalId = await ctx.em.transactional(async (tx) => {
    await lockOwner(tx, ctx.user.id);
    // The same goal saved again from the same chat (a second click, a retry after a lost answer)
    // is the goal already saved, not a duplicate: the answer is that goal.
    if (chat) {
      const same = await sameGoalOfChat(tx, ctx.user.id, chat.id, input);
      if (same) return same;
    }
    if ((await tx.count(Goal, { owner: ctx.user.id })) >= goalLimits.maxGoals) {
      throw new TRPCError({ code: 'CONFLICT', message: goalTexts.tooManyGoals(goalLimits.maxGoals) });
    }
    const goal = tx.create(Goal, {
      owner: ctx.user.id,
      chat: chat?.id ?? null,
      framework: input.framework,
      title: input.title,
      dueDate: input.dueDate,
      cadence: input.cadence,
      nextReminderAt: input.cadence !== 'off' ? new Date(now.getTime() + weekMs) : null,
    });
    input.keyResults.forEach((kr, position) => {
      tx.create(KeyResult, { goal, position, title: kr.title, start: kr.start, target: kr.target, unit: kr.unit });
    });
    await tx.flush();
    return goal.id;
  });
  return getGoal(ctx, { goalId });
}

export async function updateGoal(ctx: AuthedContext, input: UpdateGoal): Promise<GoalView> {
  const goal = await ownGoal(ctx, input.goalId);
  if (input.title !== undefined) goal.title = input.title;
  if (input.dueDate !== undefined) goal.dueDate = input.dueDate;
  if (input.done !== undefined) goal.doneAt = input.done ? (goal.doneAt ?? new Date()) : null;
  if (input.cadence !== undefined && input.cadence !== goal.cadence && input.cadence === 'weekly_call') refuseOutsideWorld(ctx, 'goalCalls');
  if (input.cadence !== undefined) goal.cadence = input.cadence;
  goal.nextReminderAt = goal.cadence !== 'off' && !goal.doneAt ? (goal.nextReminderAt ?? new Date(Date.now() + weekMs)) : null;
  if (input.keyResults) {
    const existing = await ctx.em.find(KeyResult, { goal: goal.id });
    const listed = new Set(input.keyResults.flatMap((kr) => (kr.id ? [kr.id] : [])));
    for (const id of listed) {
      if (!existing.some((kr) => kr.id === id)) throw new TRPCError({ code: 'NOT_FOUND', message: goalTexts.keyResultNotFound });
    }
    for (const kr of existing.filter((kr) => !listed.has(kr.id))) {
      if ((await ctx.em.count(CheckIn, { keyResult: kr.id })) > 0) throw new TRPCError({ code: 'CONFLICT', message: goalTexts.keyResultHasHistory });
      ctx.em.remove(kr);
    }
    input.keyResults.forEach((kr, position) => {
      const row = kr.id ? existing.find((e) => e.id === kr.id)! : ctx.em.create(KeyResult, { goal, position, title: kr.title, start: kr.start, target: kr.target, unit: kr.unit });
      Object.assign(row, { position, title: kr.title, start: kr.start, target: kr.target, unit: kr.unit });
    });
  }
  await ctx.em.flush();
  return getGoal(ctx, { goalId: goal.id });
}

export async function deleteGoal(ctx: AuthedContext, input: { goalId: number }): Promise<void> {
  const deleted = await ctx.em.nativeDelete(Goal, { id: input.goalId, owner: ctx.user.id });
  if (deleted === 0) throw new TRPCError({ code: 'NOT_FOUND', message: goalTexts.notFound });
}

/** Logs a key result's value now; the next reminder moves a cadence away. */
export async function checkIn(ctx: AuthedContext, input: CheckInInput): Promise<GoalView> {
  const goal = await ownGoal(ctx, input.goalId);
  const keyResult = await ctx.em.findOne(KeyResult, { id: input.keyResultId, goal: goal.id });
  if (!keyResult) throw new TRPCError({ code: 'NOT_FOUND', message: goalTexts.keyResultNotFound });
  ctx.em.create(CheckIn, { keyResult, value: input.value, note: input.note || null });
  if (goal.cadence !== 'off' && !goal.doneAt) goal.nextReminderAt = new Date(Date.now() + weekMs);
  // The coach may ask again after the next quiet week.
  goal.coachAskedAt = null;
  await ctx.em.flush();
  return getGoal(ctx, { goalId: goal.id });
}

async function ownGoal(ctx: AuthedContext, goalId: number): Promise<Goal> {
  const goal = await ctx.em.findOne(Goal, { id: goalId, owner: ctx.user.id });
  if (!goal) throw new TRPCError({ code: 'NOT_FOUND', message: goalTexts.notFound });
  return goal;
}

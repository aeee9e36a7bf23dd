import type { EntityManager } from '@mikro-orm/core';
import { goalTexts } from '../../../shared/texts/index.js';
import type { Chat } from '../../db/entities/Chat.js';
import { CheckIn, Goal, KeyResult } from '../../db/entities/Goal.js';
import { Message } from '../../db/entities/Message.js';

// Goals in the chat: telling the coach 'we are at 3 deploys a day now' in a chat about
// a goal logs a check-in for the key result it names; and a goal left without a check-in for a
// week gets one question from the coach when the user next opens a chat.

export const staleAfterDays = 7;
const dayMs = 24 * 60 * 60 * 1000;
const weekMs = 7 * dayMs;

type Candidate = { id: number; goalId: number; title: string; unit: string };
export type ReadCheckIn = { keyResultId: number; goalId: number; value: number };

// A progress report says where things are now: 'we are at', 'we're at', 'reached', 'now', 'down to'...
const reportWords = /\b(?:are|is|am|were|now|currently|reached|hit|got|down to|up to|at|so far|sitting at|stands? at)\b/i;
const numberThenWords = /(-?\d+(?:[.,]\d+)?)\s*(%|[a-z][a-z/ -]{0,40})?/gi;
// A message may report several key results: 'we hit 5 deploys a day and lead time is now 3 days'.
// Read on single-spaced text (the message's whitespace runs become one space first): a pattern
// with `\s+` on both sides of a word is quadratic on a long run of spaces.
const clauseBreak = /[,;.!?]{1,10} | (?:and|but|while|whereas) /i;

const stem = (word: string) => word.toLowerCase().replace(/ies$/, 'y').replace(/(?:es|s)$/, '');
const ignored = new Set(['the', 'and', 'now', 'are', 'our', 'per', 'with', 'for', 'from', 'that', 'this', 'was', 'were', 'down', 'have', 'has', 'got', 'reached', 'currently']);
const tokens = (text: string) =>
  new Set((text.toLowerCase().match(/[a-z%]+/g) ?? []).filter((w) => (w.length >= 3 || w === '%') && !ignored.has(w)).map(stem));

/**
 * The check-ins a message reports for these key results. Each number is read with its clause: the
 * words after it (its unit, weighted double) and before it (what it is about), matched to the key
 * result whose unit and title share the most words. With a single key result and a single number
 * in a progress report, the number is its value.
 */
export function checkInsFromText(text: string, keyResults: Candidate[]): ReadCheckIn[] {
  if (keyResults.length === 0 || !reportWords.test(text)) return [];
  const mentions = text.replace(/\s+/g, ' ').split(clauseBreak).flatMap((clause) =>
    [...clause.matchAll(numberThenWords)].map((m) => ({
      value: Number(m[1]!.replace(',', '.')),
      after: tokens(m[2] ?? ''),
      before: tokens(clause.slice(0, m.index)),
    })),
  );
  if (mentions.length === 0) return [];
  const found = new Map<number, ReadCheckIn>();
  for (const mention of mentions) {
    let best: { kr: Candidate; score: number } | null = null;
    for (const kr of keyResults) {
      const krWords = tokens(`${kr.unit.replace(/\//g, ' ')} ${kr.title}`);
      let score = 0;
      for (const word of mention.after) if (krWords.has(word)) score += 2;
      for (const word of mention.before) if (krWords.has(word)) score += 1;
      if (score > 0 && (!best || score > best.score)) best = { kr, score };
    }
    if (best && !found.has(best.kr.id)) found.set(best.kr.id, { keyResultId: best.kr.id, goalId: best.kr.goalId, value: mention.value });
  }
  if (found.size === 0 && keyResults.length === 1 && mentions.length === 1) {
    const kr = keyResults[0]!;
    return [{ keyResultId: kr.id, goalId: kr.goalId, value: mentions[0]!.value }];
  }
  return [...found.values()];
}

/** Logs what a user message in `chatId` reports about the goals of that chat (saved from it, or asked about in it). */
export async function recordCheckInsFromMessage(em: EntityManager, userId: number, chatId: number, text: string): Promise<ReadCheckIn[]> {
  const goals = await em.find(Goal, { owner: userId, doneAt: null, $or: [{ chat: chatId }, { coachAskedChat: chatId }] });
  if (goals.length === 0) return [];
  const keyResults = await em.find(KeyResult, { goal: { $in: goals.map((g) => g.id) } }, { orderBy: { position: 'asc' } });
  const read = checkInsFromText(
    text,
    keyResults.map((kr) => ({ id: kr.id, goalId: (kr.goal as { id: number }).id, title: kr.title, unit: kr.unit })),
  );
  if (read.length === 0) return [];
  const now = Date.now();
  for (const checkIn of read) {
    em.create(CheckIn, { keyResult: em.getReference(KeyResult, checkIn.keyResultId), value: checkIn.value, note: text.slice(0, 500) });
    const goal = goals.find((g) => g.id === checkIn.goalId)!;
    goal.coachAskedAt = null;
    if (goal.cadence !== 'off') goal.nextReminderAt = new Date(now + weekMs);
  }
  await em.flush();
  return read;
}

/**
 * When the user opens a new chat: the coach asks about one active goal whose last check-in (or
 * creation, without any) is more than a week old, once (until the next check-in).
 */
export async function askAboutStaleGoal(em: EntityManager, userId: number, chat: Chat, now = new Date()): Promise<Message | null> {
  const cutoff = new Date(now.getTime() - staleAfterDays * dayMs);
  const rows: Array<{ id: number; last: Date | string }> = await em.getConnection().execute(
    `select g."id", coalesce(max(c."created_at"), g."created_at") as "last"
     from "goal" g left join "key_result" k on k."goal_id" = g."id" left join "check_in" c on c."key_result_id" = k."id"
     where g."owner_id" = ? and g."done_at" is null and g."coach_asked_at" is null
     group by g."id", g."created_at"
     having coalesce(max(c."created_at"), g."created_at") < ?::timestamptz
     order by 2 asc limit 1`,
    [userId, cutoff.toISOString()],
  );
  const row = rows[0];
  if (!row) return null;
  const goal = await em.findOneOrFail(Goal, row.id);
  const keyResults = await em.find(KeyResult, { goal: goal.id }, { orderBy: { position: 'asc' } });
  const days = Math.floor((now.getTime() - new Date(row.last).getTime()) / dayMs);
  const message = em.create(Message, {
    chat,
    role: 'assistant',
    content: goalTexts.coachAsks(goal.title, days, keyResults.map((kr) => kr.title)),
    status: 'complete',
  });
  goal.coachAskedAt = now;
  goal.coachAskedChat = chat;
  await em.flush();
  return message;
}

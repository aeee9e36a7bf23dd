import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { labelBits, topicLabelsOf, type TopicLabels } from '../../providers/ai/topicLabels.js';

// The organisation's analytics count coaching here, once per user turn, from the one coach turn
// (runCoachTurn): a row per member and week (coaching_activity) with their sessions by kind (a
// chat, a call, a rehearsal or a debrief's conversation counted once a week), and the frameworks
// and themes the coach recognised (topicLabels.ts): labels, never words. Guest spaces and the demo
// account are not counted: the statement writes nothing for them.

/** Where a turn came from; a rehearsal's or a debrief's chat is told by the chat itself. */
export type ActivityPath = 'chat' | 'voice' | 'phone';

/** The week a moment falls in: its Monday, UTC, as YYYY-MM-DD. */
export function weekOf(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

/**
 * Counts one turn of a member's in the chat `chatId` (its session, once a week) with its labels.
 * One statement: the member check, the kind (a debrief's chat, a rehearsal's, else the path), the
 * week's row made or added to.
 */
export async function recordCoachingActivity(
  em: EntityManager,
  input: { userId: number; chatId: number; path: ActivityPath; labels: TopicLabels; at?: Date },
): Promise<void> {
  const bits = labelBits(input.labels);
  const week = weekOf(input.at ?? new Date());
  await em.getConnection().execute(
    `with kind as (
       select case
         when exists (select 1 from "debrief" d where d."chat_id" = c."id") then 'debrief'
         when c."is_rehearsal" then 'rehearsal'
         else ?::text
       end as "kind", c."id" as "chat_id"
       from "chat" c where c."id" = ? and c."owner_id" = ?
     )
     insert into "coaching_activity" ("user_id", "organisation_id", "week", "chat_sessions", "voice_sessions", "phone_sessions", "rehearsal_sessions", "debrief_sessions", "frameworks", "themes", "sessions")
     select u."id", u."organisation_id", ?::date,
       (k."kind" = 'chat')::int, (k."kind" = 'voice')::int, (k."kind" = 'phone')::int, (k."kind" = 'rehearsal')::int, (k."kind" = 'debrief')::int,
       ?, ?, array[k."chat_id"]
     from "app_user" u, kind k
     where u."id" = ? and not u."is_guest" and not u."is_demo"
     on conflict ("user_id", "week") do update set
       "chat_sessions" = "coaching_activity"."chat_sessions" + case when excluded."sessions"[1] = any("coaching_activity"."sessions") then 0 else excluded."chat_sessions" end,
       "voice_sessions" = "coaching_activity"."voice_sessions" + case when excluded."sessions"[1] = any("coaching_activity"."sessions") then 0 else excluded."voice_sessions" end,
       "phone_sessions" = "coaching_activity"."phone_sessions" + case when excluded."sessions"[1] = any("coaching_activity"."sessions") then 0 else excluded."phone_sessions" end,
       "rehearsal_sessions" = "coaching_activity"."rehearsal_sessions" + case when excluded."sessions"[1] = any("coaching_activity"."sessions") then 0 else excluded."rehearsal_sessions" end,
       "debrief_sessions" = "coaching_activity"."debrief_sessions" + case when excluded."sessions"[1] = any("coaching_activity"."sessions") then 0 else excluded."debrief_sessions" end,
       "frameworks" = "coaching_activity"."frameworks" | excluded."frameworks",
       "themes" = "coaching_activity"."themes" | excluded."themes",
       "sessions" = case when excluded."sessions"[1] = any("coaching_activity"."sessions") then "coaching_activity"."sessions" else "coaching_activity"."sessions" || excluded."sessions" end`,
    [input.path, input.chatId, input.userId, week, bits.frameworks, bits.themes, input.userId],
  );
}

/** What a turn's caller hands runCoachTurn so the turn is counted: whose it is, and which chat its save ended in. */
export type TurnActivity<Saved> = {
  record(latest: string, answeredBySafety: boolean, saved: Saved): Promise<void>;
};

/**
 * The recorder for a member's turns. `chatOf`: the chat the turn was saved in (null: none, as for
 * a turn given up); a failure to count is logged, never the turn's failure.
 */
export function turnActivity<Saved>(deps: { log: Logger }, em: EntityManager, userId: number, path: ActivityPath, chatOf: (saved: Saved) => number | null): TurnActivity<Saved> {
  return {
    async record(latest, answeredBySafety, saved) {
      const chatId = chatOf(saved);
      if (chatId === null) return;
      try {
        await recordCoachingActivity(em, { userId, chatId, path, labels: topicLabelsOf(latest, { answeredBySafety }) });
      } catch (cause) {
        deps.log.warn({ err: cause, userId, chatId }, 'could not count a coaching turn for the analytics');
      }
    },
  };
}

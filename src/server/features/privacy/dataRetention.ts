import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { privacyDefaults } from '../../../shared/settingsConstants.js';
import { startPeriodicJob } from '../../jobs/periodicJob.js';

// Privacy that is kept, not only stored: each user's chats and messages older than their
// dataRetention setting (30, 90, 180 or 365 days; 'forever' keeps everything; default 90) are
// deleted, and chats started with storeChatHistory off that nobody touched for an hour are too
// (the user left them without the page being able to say so). One statement per kind of row,
// for all users at once: the setting is joined in, a user without a settings row has the default.

export const temporaryChatIdleMs = 60 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

// The retention in days of a chat's owner, or null for 'forever'.
const retentionDays = `nullif(coalesce(s."data_retention", '${privacyDefaults.dataRetention}'), 'forever')::int`;

export type RetentionResult = { chats: number; messages: number; temporaryChats: number; memories: number };

export async function enforceDataRetention(orm: MikroORM, now = new Date()): Promise<RetentionResult> {
  const connection = orm.em.fork().getConnection();
  const count = (result: unknown) => (Array.isArray(result) ? result.length : Number((result as { affectedRows?: number })?.affectedRows ?? 0));
  // Whole chats whose last activity is older than the owner's retention (their messages go with them).
  const chats = await connection.execute(
    `delete from "chat" as c using "app_user" as u left join "user_settings" as s on s."user_id" = u."id"
     where c."owner_id" = u."id" and c."updated_at" < ?::timestamptz - make_interval(days => ${retentionDays})
     returning c."id"`,
    [now.toISOString()],
  );
  // Older messages of chats still in use. A reply being written is left alone.
  const messages = await connection.execute(
    `delete from "message" as m using "chat" as c left join "user_settings" as s on s."user_id" = c."owner_id"
     where m."chat_id" = c."id" and m."status" <> 'streaming' and m."created_at" < ?::timestamptz - make_interval(days => ${retentionDays})
     returning m."id"`,
    [now.toISOString()],
  );
  const temporaryChats = await connection.execute(
    `delete from "chat" where "is_temporary" and "updated_at" < ?::timestamptz returning "id"`,
    [new Date(now.getTime() - temporaryChatIdleMs).toISOString()],
  );
  // Memories are kept as chats are: one not written for longer than the retention goes.
  const memories = await connection.execute(
    `delete from "memory" as r using "app_user" as u left join "user_settings" as s on s."user_id" = u."id"
     where r."owner_id" = u."id" and r."updated_at" < ?::timestamptz - make_interval(days => ${retentionDays})
     returning r."id"`,
    [now.toISOString()],
  );
  return { chats: count(chats), messages: count(messages), temporaryChats: count(temporaryChats), memories: count(memories) };
}

/** Runs the retention now (at start) and then once a day; stop() ends it (shutdown). */
export function startDataRetentionJob(orm: MikroORM, log: Logger, intervalMs = dayMs) {
  return startPeriodicJob({
    intervalMs,
    log,
    failure: 'data retention failed',
    work: async () => {
      const result = await enforceDataRetention(orm);
      if (result.chats || result.messages || result.temporaryChats || result.memories) log.info(result, 'data retention applied');
    },
  });
}

import { startPeriodicJob } from '../../jobs/periodicJob.js';
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { MessageDto } from '../../db/entities/Message.js';
import type { ChatBus } from './chatBus.js';
import { replyCheckpointMs } from './replyRunner.js';

// A reply is written at least every checkpoint while its instance runs it (replyRunner.ts). One
// whose row has not been written for this long is orphaned: its instance died (even killed) or
// lost the database, and no one will ever finish it. A few intervals of margin keep a busy but
// live instance's replies from being taken away (if one is, its next checkpoint finds the reply
// settled and stops streaming it).
export const replyOrphanedAfterMs = 5 * replyCheckpointMs;
/** How often each instance looks for orphaned replies. */
export const orphanSweepMs = 10_000;

type Row = { id: number; chat_id: number; role: MessageDto['role']; content: string; created_at: Date | string };

/**
 * Marks orphaned replies stopped, keeping the text checkpointed so far, and tells the chats'
 * subscribers (on every instance) that they ended. One atomic statement: of several instances
 * sweeping at once, each reply is settled by exactly one. The chat accepts messages again.
 */
export async function settleOrphanedReplies(
  em: EntityManager,
  chatBus: ChatBus,
  options: {
    /** Only this chat's reply (a stop asked for a reply no instance runs). */
    chatId?: number;
    /** Replies running on this instance: never orphaned, however late their last write. */
    running?: readonly number[];
    /** Unwritten for this long; 0 at the embedded database's start, where no other instance can run one. */
    olderThanMs?: number;
  } = {},
): Promise<MessageDto[]> {
  const olderThanMs = options.olderThanMs ?? replyOrphanedAfterMs;
  const where = [`"status" = 'streaming'`];
  const params: unknown[] = [];
  // Both times are the database's: instances' clocks never matter.
  if (olderThanMs > 0) {
    where.push(`"updated_at" < current_timestamp - ?::int * interval '1 millisecond'`);
    params.push(olderThanMs);
  }
  if (options.chatId !== undefined) {
    where.push(`"chat_id" = ?`);
    params.push(options.chatId);
  }
  if (options.running?.length) {
    where.push(`"id" <> all(?::int[])`);
    params.push(`{${options.running.join(',')}}`);
  }
  const rows: Row[] = await em.getConnection().execute(
    `update "message" set "status" = 'stopped', "updated_at" = current_timestamp where ${where.join(' and ')} returning "id", "chat_id", "role", "content", "created_at"`,
    params,
  );
  const settled = rows.map(
    (row): MessageDto => ({
      id: Number(row.id),
      chatId: Number(row.chat_id),
      role: row.role,
      content: row.content,
      status: 'stopped',
      createdAt: new Date(row.created_at).toISOString(),
    }),
  );
  for (const message of settled) chatBus.publish(message.chatId, { type: 'message.completed', message });
  return settled;
}

/** Settles orphaned replies now (awaited) and then every `everyMs` until stopped. */
export function startOrphanSweep(deps: {
  em: EntityManager;
  chatBus: ChatBus;
  runningIds: () => number[];
  log: Logger;
  /** The first sweep settles every reply still streaming (the embedded database's start). */
  firstSettlesAll?: boolean;
  everyMs?: number;
}) {
  return startPeriodicJob({
    intervalMs: deps.everyMs ?? orphanSweepMs,
    log: deps.log,
    failure: 'could not settle orphaned coach replies',
    work: async (first) => {
      const settled = await settleOrphanedReplies(deps.em, deps.chatBus, { running: deps.runningIds(), olderThanMs: first && deps.firstSettlesAll ? 0 : undefined });
      if (settled.length) deps.log.warn({ messageIds: settled.map((message) => message.id) }, 'orphaned coach replies marked stopped');
    },
  });
}

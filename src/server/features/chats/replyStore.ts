import type { MikroORM } from '@mikro-orm/core';
import type { MessageStatus } from '../../db/entities/Message.js';

// Stores replies: their checkpoints while they stream, and their end. Replies often end together
// (many users, one model), and on the embedded database every statement runs on the event loop
// that is streaming the other replies: so the replies written within a few milliseconds are
// written by one statement.
export type ReplyStore = ReturnType<typeof createReplyStore>;

type Pending = { id: number; content: string; status: MessageStatus; settle: (stored: boolean) => void; fail: (error: unknown) => void };

export function createReplyStore(orm: MikroORM, windowMs = 5) {
  let pending: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  async function write(batch: Pending[]) {
    const values = batch.map(() => '(?::int, ?::text, ?::text)').join(', ');
    const params = batch.flatMap((reply) => [reply.id, reply.content, reply.status]);
    try {
      const rows: Array<{ id: number }> = await orm.em.getConnection().execute(
        // Only a reply still under way is written: one settled as orphaned by another instance
        // (orphanedReplies.ts) stays as it was settled. updated_at is the heartbeat, by the database's clock.
        `update "message" as m set "content" = v.content, "status" = v.status, "updated_at" = current_timestamp from (values ${values}) as v(id, content, status) where m."id" = v.id and m."status" = 'streaming' returning m."id"`,
        params,
      );
      const stored = new Set(rows.map((row) => Number(row.id)));
      // A reply whose chat was deleted meanwhile is simply not there any more; one settled
      // elsewhere is no longer streaming.
      for (const reply of batch) reply.settle(stored.has(reply.id));
    } catch (error) {
      for (const reply of batch) reply.fail(error);
    }
  }

  function flush() {
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length) inFlight = inFlight.then(() => write(batch));
  }

  return {
    /** Resolves true when stored, false when the message no longer exists or no longer streams. */
    save(id: number, content: string, status: MessageStatus): Promise<boolean> {
      return new Promise((settle, fail) => {
        pending.push({ id, content, status, settle, fail });
        timer ??= setTimeout(flush, windowMs);
      });
    },
    /** Writes what is waiting now (shutdown). */
    async drain() {
      if (timer) clearTimeout(timer);
      flush();
      await inFlight;
    },
  };
}

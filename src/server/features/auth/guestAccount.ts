import crypto from 'node:crypto';
import { rateLimitAddressKey } from '../limits/index.js';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { CheckIn, Goal, KeyResult } from '../../db/entities/Goal.js';
import { Memory } from '../../db/entities/Memory.js';
import { NudgeRun } from '../../db/entities/Nudge.js';
import { Rehearsal } from '../../db/entities/Rehearsal.js';
import type { Logger } from 'pino';
import { AuthSession } from '../../db/entities/AuthSession.js';
import { Chat } from '../../db/entities/Chat.js';
import { Message } from '../../db/entities/Message.js';
import { User } from '../../db/entities/User.js';
import { startPeriodicJob, type PeriodicJob } from '../../jobs/periodicJob.js';
import type { DbContext } from '../../trpc/context.js';
import type { SessionStore } from './sessionStore.js';
import { deleteUserRows } from '../privacy/index.js';
import { copyDemoExamples } from './demoExamples.js';
import { copyDemoSamples } from './demoWeek.js';

// A private guest space for every demo visitor. A visitor without a session reads the
// demo account (the read-only template: its profile and the four sample chats, the product spec's states and transitions);
// the first write of any kind makes a guest account of their own, a copy of the template, signs
// the visitor into it (an HttpOnly session cookie over HTTP) and goes on as that guest. Nothing is
// ever written into the template, so nothing one visitor writes reaches another. Which request
// acts as whom is decided in one place: actAs in trpc/principal.ts.

export type GuestSpace = { user: User };

/** Makes a guest account from the template (`ctx.user`, the demo account) and signs the request into it. */
export async function startGuestSpace(ctx: DbContext & { user: User }, options: { overSocket?: boolean } = {}): Promise<GuestSpace> {
  const template = ctx.user;
  await ctx.deps.rateLimits.guests.consume(rateLimitAddressKey(ctx.clientIp));
  const user = await ctx.em.fork().transactional(async (tx) => {
    const name = `guest-${crypto.randomBytes(8).toString('hex')}`;
    const guest = tx.create(User, {
      username: name,
      usernameKey: name,
      passwordHash: null,
      fullName: template.fullName,
      jobTitle: template.jobTitle,
      company: template.company,
      isDemo: false,
      isGuest: true,
      guestOrigin: 'demo',
    });
    await tx.flush();
    // The template's chats as they are (its samples), oldest first so ids keep their order.
    const chats = await tx.find(Chat, { owner: template.id, isTemporary: false }, { orderBy: { id: 'asc' } });
    const messages = await tx.find(Message, { chat: { $in: chats.map((c) => c.id) }, status: 'complete' }, { orderBy: { id: 'asc' } });
    const chatCopies = new Map<number, Chat>();
    const messageCopies = new Map<number, Message>();
    for (const chat of chats) {
      // The copy remembers its sample: the sample's id keeps naming it (trpc/sampleCopies.ts, Chat.toDto).
      const copy = tx.create(Chat, { owner: guest, title: chat.title, isPinned: chat.isPinned, isRehearsal: chat.isRehearsal, createdAt: chat.createdAt, updatedAt: chat.updatedAt, sampleOf: chat.id });
      chatCopies.set(chat.id, copy);
      for (const message of messages.filter((m) => (m.chat as { id: number }).id === chat.id)) {
        messageCopies.set(message.id, tx.create(Message, { chat: copy, role: message.role, content: message.content, status: 'complete', createdAt: message.createdAt }));
      }
    }
    await tx.flush();
    // The template's sample goals and memories (demoWeek.ts) and its example rehearsal and weekly
    // review (demoExamples.ts), the visitor's own from now on.
    await copyDemoSamples(tx, template.id, guest);
    await copyDemoExamples(tx, template.id, guest, chatCopies, messageCopies);
    return guest;
  });
  await ctx.session.start(user.id, { overSocket: options.overSocket });
  ctx.deps.log.info({ userId: user.id }, 'guest space started');
  return { user: await ctx.em.findOneOrFail(User, user.id) };
}

/**
 * Deletes the guest accounts unused for `idleHours` (no session seen since, and made before),
 * with all their rows, and ends their sessions on every instance (their sockets close).
 */
export async function deleteIdleGuests(deps: { orm: MikroORM; sessions: SessionStore }, idleHours: number, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - idleHours * 3_600_000);
  const em = deps.orm.em.fork();
  const rows: Array<{ id: number }> = await em.getConnection().execute(
    `select u.id from app_user u
      where u.is_guest and u.created_at < ?
        and not exists (select 1 from auth_session s where s.user_id = u.id and s.last_seen_at >= ?)
      limit 500`,
    [cutoff, cutoff],
  );
  for (const { id } of rows) {
    const sessionIds = (await em.find(AuthSession, { user: id }, { fields: ['id'] })).map((s) => s.id);
    await deleteUserRows(deps.orm, id);
    await deps.sessions.end(sessionIds);
  }
  return rows.length;
}

/**
 * With demo mode off, a demo visitor's way in is closed: the sessions of demo guests end (on every
 * instance; their sockets close), so their cookies answer 401 as anyone's without a session would.
 * Their spaces are left to the idle job (DEMO_GUEST_IDLE_HOURS), so turning demo mode on again
 * within that time finds them as they were. Access-key guests keep their sessions: that gate is
 * open without demo mode. Answers how many sessions ended.
 */
export async function endDemoGuestSessions(deps: { orm: MikroORM; sessions: SessionStore }): Promise<number> {
  const rows: Array<{ id: string }> = await deps.orm.em
    .fork()
    .getConnection()
    .execute(`select s.id from auth_session s join app_user u on u.id = s.user_id where u.is_guest and u.guest_origin = 'demo'`);
  await deps.sessions.end(rows.map((row) => row.id));
  return rows.length;
}

/** Idle guest spaces go at start and then hourly. */
export function startGuestCleanupJob(deps: { orm: MikroORM; sessions: SessionStore; log: Logger }, idleHours: number): PeriodicJob {
  return startPeriodicJob({
    work: async () => {
      const deleted = await deleteIdleGuests(deps, idleHours);
      if (deleted) deps.log.info({ deleted }, 'idle guest spaces deleted');
    },
    intervalMs: 3_600_000,
    log: deps.log,
    failure: 'deleting idle guest spaces failed',
  });
}


/**
 * A guest space becoming an account keeps what the visitor made and none of the demo's samples:
 * the sample goals, memories, example rehearsal, weekly review and sample chats go. A sample the
 * visitor took up is theirs and stays, no longer a sample: a sample chat they wrote in (with its
 * rehearsal), a sample goal they checked in on, a sample memory they edited. A message or check-in
 * is told apart by time: the copies carry the template's dates, all before the space was made.
 */
export async function dropGuestSamples(em: EntityManager, guest: Pick<User, 'id' | 'createdAt'>): Promise<void> {
  const since = guest.createdAt;
  const sampleChats = await em.find(Chat, { owner: guest.id, sampleOf: { $ne: null } }, { fields: ['id'] });
  const written = new Set(
    sampleChats.length === 0
      ? []
      : (await em.find(Message, { chat: { $in: sampleChats.map((c) => c.id) }, role: 'user', createdAt: { $gt: since } }, { fields: ['chat'] })).map(
          (m) => (m.chat as { id: number }).id,
        ),
  );
  const takenUp = sampleChats.filter((c) => written.has(c.id)).map((c) => c.id);
  const dropped = sampleChats.filter((c) => !written.has(c.id)).map((c) => c.id);
  await em.nativeUpdate(Rehearsal, { owner: guest.id, isSample: true, chat: { $in: takenUp } }, { isSample: false });
  await em.nativeDelete(Rehearsal, { owner: guest.id, isSample: true });
  await em.nativeDelete(NudgeRun, { owner: guest.id, isSample: true });
  if (dropped.length) await em.nativeDelete(Chat, { id: { $in: dropped } });

  const goals = await em.find(Goal, { owner: guest.id, isSample: true }, { fields: ['id'] });
  const keyResults = goals.length === 0 ? [] : await em.find(KeyResult, { goal: { $in: goals.map((g) => g.id) } }, { fields: ['id', 'goal'] });
  const checkedIn = new Set(
    keyResults.length === 0
      ? []
      : (await em.find(CheckIn, { keyResult: { $in: keyResults.map((kr) => kr.id) }, createdAt: { $gt: since } }, { fields: ['keyResult'] })).map(
          (c) => keyResults.find((kr) => kr.id === (c.keyResult as { id: number }).id)!.goal.id,
        ),
  );
  const keptGoals = goals.filter((g) => checkedIn.has(g.id)).map((g) => g.id);
  if (keptGoals.length) await em.nativeUpdate(Goal, { id: { $in: keptGoals } }, { isSample: false });
  await em.nativeDelete(Goal, { owner: guest.id, isSample: true });

  // A memory is taken up when its text is no longer the template's (the copies' dates say nothing:
  // they are written when the copy is made).
  const memories = await em.find(Memory, { owner: guest.id, isSample: true }, { fields: ['id', 'text', 'sampleOf'] });
  const originals = await em.find(Memory, { id: { $in: memories.flatMap((m) => (m.sampleOf ? [m.sampleOf] : [])) } }, { fields: ['id', 'text'] });
  const edited = memories.filter((m) => originals.find((o) => o.id === m.sampleOf)?.text !== m.text).map((m) => m.id);
  if (edited.length) await em.nativeUpdate(Memory, { id: { $in: edited } }, { isSample: false });
  await em.nativeDelete(Memory, { owner: guest.id, isSample: true });
}

import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import type { WebSocket } from 'ws';
import { sessionTexts } from '../../../shared/texts/index.js';
import { AuthSession } from '../../db/entities/AuthSession.js';
import { User } from '../../db/entities/User.js';
import type { ChatBus } from '../chats/index.js';

// Server-side sessions. The cookie holds a random token; the row id is its SHA-256.
// Recent sessions are kept in memory so that a request costs no query; when a session ends on
// any instance, every instance drops it from memory and closes its sockets, through the chat
// bus (LISTEN/NOTIFY on PostgreSQL), on the reserved channel 0 that no chat uses.
export const sessionEventsChannel = 0;

/** `socketRecheckSeconds`: an open socket's session row is read again at least this often (at most 60). */
export type SessionTimes = { idleSeconds: number; lifetimeSeconds: number; socketRecheckSeconds?: number };
export type LiveSession = { id: string; userId: number };
export type SessionSummary = {
  id: string;
  userAgent: string | null;
  address: string | null;
  createdAt: string;
  lastSeenAt: string;
};

type Watched = { open: Set<WebSocket>; timer?: NodeJS.Timeout };
type Cached = { userId: number; expiresAt: number; lastSeenAt: number; lastSeenWritten: number; loadedAt: number };

const maxCached = 10_000;
// Revalidated against the database now and then, in case an event between instances was lost.
const cacheTtlMs = 5 * 60_000;
const keepAliveFrames = new Set(['PING', 'PONG']);
const userSeenWriteMs = 60 * 60_000;

export function hashSessionToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export type SessionStore = ReturnType<typeof createSessionStore>;

export function createSessionStore(deps: { orm: MikroORM; chatBus: ChatBus; times: SessionTimes }) {
  const { orm, chatBus, times } = deps;
  const cache = new Map<string, Cached>();
  // The open sockets of each session on this instance, and the timer that closes them at its end.
  const sockets = new Map<string, Watched>();
  // Last-seen is written at most this often per session: enough for the idle timeout and the list.
  const lastSeenWriteMs = Math.min(60_000, (times.idleSeconds * 1000) / 10);
  const socketRecheckMs = Math.min(60, times.socketRecheckSeconds ?? 60) * 1000;
  // The account's own last-seen (the member states invited, active, inactive: members.ts), which
  // outlives its sessions: written at a sign-in, then at most hourly per account on this instance.
  const userSeenWritten = new Map<number, number>();
  function seenUser(userId: number, now: number, force = false) {
    if (!userId) return;
    const written = userSeenWritten.get(userId);
    if (!force && written !== undefined && now - written < userSeenWriteMs) return;
    userSeenWritten.delete(userId);
    userSeenWritten.set(userId, now);
    if (userSeenWritten.size > maxCached) userSeenWritten.delete(userSeenWritten.keys().next().value as number);
    void orm.em.fork().nativeUpdate(User, { id: userId }, { lastSeenAt: new Date(now) }).catch(() => {});
  }

  // A cookie's token and its row id, for tokens in use: the SHA-256 is computed once per token,
  // not on every request (it showed under load). Bounded like the cache; a wrong entry is
  // impossible (the id is a pure function of the token).
  const idOfToken = new Map<string, string>();
  function idOf(token: string): string {
    let id = idOfToken.get(token);
    if (id === undefined) {
      id = hashSessionToken(token);
      idOfToken.set(token, id);
      if (idOfToken.size > maxCached) idOfToken.delete(idOfToken.keys().next().value as string);
    }
    return id;
  }

  function remember(id: string, entry: Cached) {
    cache.delete(id);
    cache.set(id, entry);
    if (cache.size > maxCached) cache.delete(cache.keys().next().value as string);
  }

  function forget(ids: string[]) {
    for (const id of ids) {
      cache.delete(id);
      const watched = sockets.get(id);
      if (!watched) continue;
      sockets.delete(id);
      clearTimeout(watched.timer);
      for (const ws of watched.open) {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'error', message: sessionTexts.signedOut }));
        ws.close(4401, 'Signed out');
      }
    }
  }

  const unsubscribe = chatBus.subscribe(sessionEventsChannel, (event) => {
    if (event.type === 'sessions.ended') forget(event.sessionIds);
    // Ends announced while this instance's event connection was down were missed: start afresh
    // from the database, and close the sockets whose session is gone.
    if (event.type === 'bus.reconnected') void resync();
  });

  async function resync() {
    cache.clear();
    const tracked = [...sockets.keys()];
    if (!tracked.length) return;
    const alive = new Set((await orm.em.fork().find(AuthSession, { id: { $in: tracked } }, { fields: ['id'] })).map((row) => row.id));
    forget(tracked.filter((id) => !alive.has(id)));
  }

  function isOver(entry: Cached, now: number) {
    return entry.expiresAt <= now || entry.lastSeenAt + times.idleSeconds * 1000 <= now;
  }

  /** Counts a use of a live session: idle time starts again (written now and then, for every instance). */
  function touch(id: string, entry: Cached, now: number) {
    entry.lastSeenAt = now;
    if (now - entry.lastSeenWritten >= lastSeenWriteMs) {
      entry.lastSeenWritten = now;
      void orm.em.fork().nativeUpdate(AuthSession, { id }, { lastSeenAt: new Date(now) }).catch(() => {});
      seenUser(entry.userId, now);
    }
  }

  // Idle and absolute ends are not announced: the sockets of a session wait for its end time. When
  // the timer fires it looks again, as a request would: a session used meanwhile (here, or on
  // another instance, which wrote the row) only moves the timer on. One timer per session.
  function arm(id: string, watched: Watched, entry: Cached | undefined) {
    clearTimeout(watched.timer);
    const end = entry ? Math.min(entry.expiresAt, entry.lastSeenAt + times.idleSeconds * 1000) : Date.now();
    // At least every minute the row is read again: a session ended in a way no event
    // announced (its row deleted with its account, on any instance) closes its sockets soon.
    watched.timer = setTimeout(() => void recheck(id, watched), Math.max(0, Math.min(end - Date.now(), socketRecheckMs)));
    watched.timer.unref();
  }

  async function recheck(id: string, watched: Watched) {
    if (sockets.get(id) !== watched) return;
    const now = Date.now();
    let entry: Cached;
    try {
      const row = await orm.em.fork().findOne(AuthSession, id);
      if (!row) {
        forget([id]);
        return;
      }
      entry = {
        userId: (row.user as { id: number }).id,
        expiresAt: row.expiresAt.getTime(),
        lastSeenAt: Math.max(row.lastSeenAt.getTime(), cache.get(id)?.lastSeenAt ?? 0),
        lastSeenWritten: Math.max(row.lastSeenAt.getTime(), cache.get(id)?.lastSeenWritten ?? 0),
        loadedAt: now,
      };
      if (isOver(entry, now)) {
        await end([id]);
        return;
      }
      remember(id, entry);
    } catch {
      // The database is away: look again in a minute.
      entry = { userId: 0, expiresAt: now + 60_000, lastSeenAt: now, lastSeenWritten: now, loadedAt: now };
    }
    if (sockets.get(id) === watched) arm(id, watched, entry);
  }

  async function end(ids: string[]) {
    if (!ids.length) return;
    await orm.em.fork().nativeDelete(AuthSession, { id: { $in: ids } });
    forget(ids);
    chatBus.publish(sessionEventsChannel, { type: 'sessions.ended', sessionIds: ids });
  }

  return {
    async create(userId: number, meta: { userAgent?: string; address?: string; lifetimeSeconds?: number }): Promise<{ token: string; id: string }> {
      const token = crypto.randomBytes(32).toString('base64url');
      const id = hashSessionToken(token);
      const now = Date.now();
      const lifetime = Math.min(meta.lifetimeSeconds ?? times.lifetimeSeconds, times.lifetimeSeconds);
      const em = orm.em.fork();
      em.create(AuthSession, {
        id,
        user: userId,
        expiresAt: new Date(now + lifetime * 1000),
        userAgent: meta.userAgent?.slice(0, 512) ?? null,
        address: meta.address?.slice(0, 64) ?? null,
      });
      await em.flush();
      remember(id, { userId, expiresAt: now + lifetime * 1000, lastSeenAt: now, lastSeenWritten: now, loadedAt: now });
      seenUser(userId, now, true);
      return { token, id };
    },

    /** The live session a cookie token names, or null when it never existed or has ended. */
    async lookup(token: string): Promise<LiveSession | null> {
      const id = idOf(token);
      const now = Date.now();
      let entry = cache.get(id);
      if (!entry || isOver(entry, now) || entry.loadedAt + cacheTtlMs <= now) {
        const row = await orm.em.fork().findOne(AuthSession, id);
        if (!row) {
          cache.delete(id);
          return null;
        }
        entry = {
          userId: (row.user as { id: number }).id,
          expiresAt: row.expiresAt.getTime(),
          lastSeenAt: Math.max(row.lastSeenAt.getTime(), entry?.lastSeenAt ?? 0),
          lastSeenWritten: row.lastSeenAt.getTime(),
          loadedAt: now,
        };
        if (isOver(entry, now)) {
          await end([id]);
          return null;
        }
        remember(id, entry);
      }
      touch(id, entry, now);
      return { id, userId: entry.userId };
    },

    end,

    async endOthers(userId: number, keepId: string | undefined): Promise<number> {
      const rows = await orm.em.fork().find(AuthSession, { user: userId, ...(keepId ? { id: { $ne: keepId } } : {}) }, { fields: ['id'] });
      await end(rows.map((row) => row.id));
      return rows.length;
    },

    async endOne(userId: number, id: string): Promise<boolean> {
      const row = await orm.em.fork().findOne(AuthSession, { id, user: userId });
      if (!row) return false;
      await end([id]);
      return true;
    },

    async list(userId: number): Promise<SessionSummary[]> {
      const now = new Date();
      const rows = await orm.em.fork().find(
        AuthSession,
        { user: userId, expiresAt: { $gt: now }, lastSeenAt: { $gt: new Date(now.getTime() - times.idleSeconds * 1000) } },
        { orderBy: { lastSeenAt: 'desc' } },
      );
      return rows.map((row) => ({
        id: row.id,
        userAgent: row.userAgent ?? null,
        address: row.address ?? null,
        createdAt: row.createdAt.toISOString(),
        lastSeenAt: new Date(Math.max(row.lastSeenAt.getTime(), cache.get(row.id)?.lastSeenAt ?? 0)).toISOString(),
      }));
    },

    /** A socket acts for its session only while the session lives. */
    trackSocket(id: string, ws: WebSocket) {
      let watched = sockets.get(id);
      if (!watched) {
        watched = { open: new Set() };
        sockets.set(id, watched);
        arm(id, watched, cache.get(id));
      }
      const { open } = watched;
      open.add(ws);
      ws.once('close', () => {
        open.delete(ws);
        if (open.size === 0 && sockets.get(id) === watched) {
          sockets.delete(id);
          clearTimeout(watched.timer);
        }
      });
      // A message on the socket is a use of its session, like a request; a keep-alive answer
      // (tRPC's PONG) is not, so an idle tab still times out.
      ws.on('message', (data, isBinary) => {
        if (!isBinary && keepAliveFrames.has(data.toString())) return;
        const now = Date.now();
        const entry = cache.get(id);
        if (entry && !isOver(entry, now)) touch(id, entry, now);
      });
    },

    close() {
      unsubscribe();
      cache.clear();
      idOfToken.clear();
      for (const watched of sockets.values()) clearTimeout(watched.timer);
    },
  };
}

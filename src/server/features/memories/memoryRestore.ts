import crypto from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { memoryKinds, memoryLimits, type MemoryView } from '../../../shared/schemas/memories.js';
import { memoryTexts } from '../../../shared/texts/memories.js';
import { Chat } from '../../db/entities/Chat.js';
import { Memory } from '../../db/entities/Memory.js';
import { User } from '../../db/entities/User.js';
import type { AuthedContext } from '../../trpc/context.js';
import { withMemoryLock } from './memoryStore.js';

// Deleting a memory on the Memory page answers a restore token, which the page's
// 'Memory deleted · Undo' toast sends back to put the memory back exactly as it was: the same
// id, text, kind, dates, source, sensitive mark and sample marks. The token carries the deleted
// row itself, signed with a key derived from the session secret (nothing is kept on the server),
// for its owner only and for a few minutes.

const restoreWindowMs = 10 * 60_000;
const keyOf = (secret: string) => crypto.createHmac('sha256', secret).update('memory-restore').digest();

type Row = {
  id: number;
  text: string;
  kind: Memory['kind'];
  dueAt: string | null;
  sourceChatId: number | null;
  sourceMessageId: number | null;
  askedAt: string | null;
  askedChatId: number | null;
  doneAt: string | null;
  sensitive: boolean | null;
  isSample: boolean;
  sampleOf: number | null;
  createdAt: string;
  updatedAt: string;
};
type Payload = { owner: number; expires: number; row: Row };

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const refId = (ref: unknown) => (ref ? (ref as { id: number }).id : null);

function sign(secret: string, body: string): string {
  return crypto.createHmac('sha256', keyOf(secret)).update(body).digest('base64url');
}

/** The token that restores `memory` (read before its delete) for its owner. */
export function restoreTokenOf(secret: string, memory: Memory, now = Date.now()): string {
  const row: Row = {
    id: memory.id,
    text: memory.text,
    kind: memory.kind,
    dueAt: iso(memory.dueAt),
    sourceChatId: refId(memory.sourceChat),
    sourceMessageId: memory.sourceMessageId ?? null,
    askedAt: iso(memory.askedAt),
    askedChatId: refId(memory.askedChat),
    doneAt: iso(memory.doneAt),
    sensitive: memory.sensitive ?? null,
    isSample: memory.isSample,
    sampleOf: memory.sampleOf ?? null,
    createdAt: memory.createdAt.toISOString(),
    updatedAt: memory.updatedAt.toISOString(),
  };
  const body = Buffer.from(JSON.stringify({ owner: refId(memory.owner) ?? 0, expires: now + restoreWindowMs, row } satisfies Payload)).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

function readToken(secret: string, token: string, owner: number, now: number): Row | null {
  const [body, signature, ...rest] = token.split('.');
  if (!body || !signature || rest.length) return null;
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  if (payload.owner !== owner || payload.expires < now || !memoryKinds.includes(payload.row.kind)) return null;
  return payload.row;
}

const date = (value: string | null) => (value ? new Date(value) : null);

/** Puts a deleted memory back as it was (the Undo of 'Memory deleted'). */
export async function restoreMemory(ctx: AuthedContext, input: { restoreToken: string }): Promise<MemoryView> {
  const row = readToken(ctx.deps.sessionPassword, input.restoreToken, ctx.user.id, Date.now());
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: memoryTexts.restoreExpired });
  const memory = await withMemoryLock(ctx.em, ctx.user.id, async (tx) => {
    if (await tx.findOne(Memory, row.id, { fields: ['id'] })) throw new TRPCError({ code: 'CONFLICT', message: memoryTexts.alreadyRestored });
    if ((await tx.count(Memory, { owner: ctx.user.id })) >= memoryLimits.maxPerUser) throw new TRPCError({ code: 'CONFLICT', message: memoryTexts.tooMany(memoryLimits.maxPerUser) });
    // A chat deleted meanwhile is no longer its source (as its delete would have left it).
    const ownChat = async (chatId: number | null) => (chatId && (await tx.count(Chat, { id: chatId, owner: ctx.user.id })) ? tx.getReference(Chat, chatId) : null);
    const restored = tx.create(Memory, {
      id: row.id,
      owner: tx.getReference(User, ctx.user.id),
      text: row.text,
      kind: row.kind,
      dueAt: date(row.dueAt),
      sourceChat: await ownChat(row.sourceChatId),
      sourceMessageId: row.sourceMessageId,
      askedAt: date(row.askedAt),
      askedChat: await ownChat(row.askedChatId),
      doneAt: date(row.doneAt),
      isSample: row.isSample,
      sampleOf: row.sampleOf,
      createdAt: new Date(row.createdAt),
      updatedAt: new Date(row.updatedAt),
    });
    await tx.flush();
    // The sensitive mark as it was (the entity decides it anew on create, from the same text).
    if (restored.sensitive !== row.sensitive) {
      await tx.nativeUpdate(Memory, { id: row.id }, { sensitive: row.sensitive, updatedAt: new Date(row.updatedAt) });
      restored.sensitive = row.sensitive;
    }
    return restored;
  });
  return memory.toView();
}

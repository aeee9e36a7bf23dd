import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { reflectionSchema } from '../../../shared/schemas/meetings.js';
import { meetingsTexts } from '../../../shared/texts/meetings.js';
import { MeetingPrep } from '../../db/entities/MeetingPrep.js';
import type { AuthedContext } from '../../trpc/context.js';
import { sendMessage } from '../chats/index.js';

// After the meeting: a prepared meeting that ended in the last 24 hours asks 'How did
// it go?'. The answer is sent into its prep chat like any message, and the coach's one reflective
// follow-up is written by the reply runner; the context assembly sees reflectedAt and asks the
// coach for a reflection (the coach's typed context, providers/ai/contract.ts).

const reflectionWindowMs = 24 * 3_600_000;

export async function reflectOnMeeting(ctx: AuthedContext, input: z.output<typeof reflectionSchema>) {
  const prep = await ctx.em.findOne(MeetingPrep, { owner: ctx.user.id, eventId: input.id });
  // A meeting whose agenda was saved but never prepared has no chat to reflect in.
  if (!prep?.chat) throw new TRPCError({ code: 'NOT_FOUND', message: meetingsTexts.notFound });
  const chatId = prep.chat.id;
  const now = Date.now();
  const due = !prep.reflectedAt && prep.endAt.getTime() <= now && now - prep.endAt.getTime() <= reflectionWindowMs;
  if (!due) throw new TRPCError({ code: 'CONFLICT', message: meetingsTexts.noReflectionDue });
  // Claimed first (one reflection per meeting, even from two tabs), given back if the send fails.
  const claimed = await ctx.em.nativeUpdate(MeetingPrep, { id: prep.id, reflectedAt: null }, { reflectedAt: new Date() });
  if (!claimed) throw new TRPCError({ code: 'CONFLICT', message: meetingsTexts.noReflectionDue });
  try {
    const sent = await sendMessage(ctx, { chatId, content: input.text });
    return { chatId, userMessage: sent.userMessage, reply: sent.reply };
  } catch (error) {
    await ctx.em.nativeUpdate(MeetingPrep, { id: prep.id }, { reflectedAt: null });
    throw error;
  }
}

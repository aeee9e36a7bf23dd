import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { trimEndWhere } from '../../../shared/trimText.js';
import { TRPCError } from '@trpc/server';
import { meetingsTexts } from '../../../shared/texts/meetings.js';
import { Chat } from '../../db/entities/Chat.js';
import type { MeetingInvite } from '../../../shared/meeting.js';
import { MeetingPrep } from '../../db/entities/MeetingPrep.js';
import { Message } from '../../db/entities/Message.js';
import type { GraphEventWithBody } from '../../providers/microsoft/graphCalendar.js';
import { GraphRequestError } from '../../providers/microsoft/graphMail.js';
import type { AuthedContext } from '../../trpc/context.js';
import { takeModelTurn } from '../ai/index.js';
import { consumeChatMessage } from '../limits/index.js';
import { asPublicError, type Calendar } from '../microsoft/index.js';
import { factSourcesOf } from '../../trpc/factSources.js';
import { meetingView, requireCalendar } from './calendar.js';
import { isSampleMeetingId, sampleMeeting, sampleTimeZone, seesSampleMeetings } from './sampleMeetings.js';

// POST /api/meetings/{id}/prep: a chat titled 'Prep: {subject}' whose first coach
// message is an agenda for the meeting, written by the reply runner like any reply (streamed,
// stored, stoppable). The coach is given the invite through the context assembly
// (the coach's typed context, providers/ai/contract.ts); the prep row keeps the invite as it was given.

const maxInviteBody = 4_000;

/** The event of the user's own calendar, or 404 for an id that is not one of theirs. */
export async function ownEvent(calendar: Calendar, id: string, bodyType: 'html' | 'text', fallback: string): Promise<GraphEventWithBody> {
  try {
    return await calendar.graph.event(id, { timeZone: calendar.timeZone, bodyType });
  } catch (error) {
    if (error instanceof GraphRequestError && (error.status === 404 || error.status === 400)) {
      throw new TRPCError({ code: 'NOT_FOUND', message: meetingsTexts.notFound });
    }
    throw asPublicError(error, fallback);
  }
}

export function inviteOf(event: GraphEventWithBody): MeetingInvite & { startAt: Date; endAt: Date } {
  const view = meetingView(event);
  const text = event.body.contentType.toLowerCase() === 'html' ? htmlToText(event.body.content) : event.body.content;
  return {
    subject: view.subject,
    start: view.start,
    end: view.end,
    startAt: view.startAt,
    endAt: view.endAt,
    organizer: view.organizer,
    attendees: view.attendees,
    location: view.location,
    isOnline: view.isOnline,
    body: text.replace(/\r/g, '').replace(/\n{3,}/g, '\n\n').trim().slice(0, maxInviteBody),
  };
}

/**
 * An invite's HTML body as plain text: line breaks where blocks end, '- ' for list items, tags,
 * scripts and styles dropped, the common entities decoded. One pass with indexOf (no
 * regex on input may backtrack; a regex like `<[^>]*>` is quadratic on a body of unclosed '<').
 */
export function htmlToText(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open < 0) {
      out += html.slice(at);
      break;
    }
    out += html.slice(at, open);
    const close = html.indexOf('>', open + 1);
    if (close < 0) break; // an unclosed tag: the rest is not text
    const closing = html[open + 1] === '/';
    let nameEnd = open + (closing ? 2 : 1);
    while (nameEnd < close && /[a-z0-9]/.test(lower[nameEnd]!)) nameEnd++;
    const name = lower.slice(open + (closing ? 2 : 1), nameEnd);
    at = close + 1;
    if (!closing && (name === 'script' || name === 'style' || name === 'head')) {
      const end = lower.indexOf(`</${name}`, at);
      const endClose = end < 0 ? -1 : html.indexOf('>', end);
      at = endClose < 0 ? html.length : endClose + 1;
    } else if (name === 'br' || (closing && (name === 'p' || name === 'div' || name === 'li' || name === 'tr' || /^h\d$/.test(name)))) {
      out += '\n';
    } else if (!closing && name === 'li') {
      out += '- ';
    }
  }
  return out
    .replaceAll('&nbsp;', ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&')
    .split('\n')
    .map((line) => trimEndWhere(line, (ch) => ch === ' ' || ch === '\t'))
    .join('\n');
}

export async function prepMeeting(ctx: AuthedContext, input: { id: string; timeZone?: string }): Promise<{ chatId: number; created: boolean }> {
  const existing = await ctx.em.findOne(MeetingPrep, { owner: ctx.user.id, eventId: input.id });
  if (existing?.chat) return { chatId: existing.chat.id, created: false };
  const { startAt, endAt, ...invite } = await inviteToPrepare(ctx, input);

  // The agenda is a model turn like a chat message: the same per-minute and daily budgets.
  await consumeChatMessage(ctx);
  const turn = takeModelTurn(ctx);
  let made;
  try {
    made = await ctx.em.transactional(async (em) => {
      const chat = em.create(Chat, { owner: ctx.user.id, title: meetingsTexts.prepChatTitle(invite.subject).slice(0, 200), isPinned: false, isTemporary: false });
      const fields = { subject: invite.subject.slice(0, 400), startAt, endAt, invite };
      if (existing) {
        // An agenda was saved or emailed before the meeting was prepared: that row gets its chat
        // (claimed, so two tabs preparing at once make one chat).
        await em.flush();
        const claimed = await em.nativeUpdate(MeetingPrep, { id: existing.id, chat: null }, { chat: chat.id, ...fields });
        if (!claimed) throw new PreparedMeanwhile();
      } else {
        em.create(MeetingPrep, { owner: ctx.user.id, chat, eventId: input.id, ...fields });
      }
      const reply = em.create(Message, { chat, role: 'assistant', content: '', status: 'streaming' });
      await em.flush();
      return { chat, reply };
    });
  } catch (error) {
    await turn.refund();
    // Prepared meanwhile (a double click, another tab): that prep is the answer.
    if (error instanceof UniqueConstraintViolationException || error instanceof PreparedMeanwhile) {
      const raced = await ctx.em.fork().findOne(MeetingPrep, { owner: ctx.user.id, eventId: input.id });
      if (raced?.chat) return { chatId: raced.chat.id, created: false };
    }
    throw error;
  }
  const replyDto = made.reply.toDto();
  ctx.deps.chatBus.publish(made.chat.id, { type: 'message.created', message: replyDto });
  ctx.deps.replies.start({ reply: replyDto, user: ctx.user, sources: factSourcesOf(ctx.session) });
  return { chatId: made.chat.id, created: true };
}

class PreparedMeanwhile extends Error {}

/** The invite the coach prepares: a demo visitor's sample meeting, or the event of the user's own calendar. */
async function inviteToPrepare(ctx: AuthedContext, input: { id: string; timeZone?: string }) {
  if (seesSampleMeetings(ctx.deps.config, ctx.user)) {
    const sample = sampleMeeting(ctx.user, input.id, await sampleTimeZone(ctx, input.timeZone));
    if (!sample) throw new TRPCError({ code: 'NOT_FOUND', message: meetingsTexts.notFound });
    return sample;
  }
  const calendar = await requireCalendar(ctx.deps, ctx.em, ctx.user.id);
  return inviteOf(await ownEvent(calendar, input.id, 'text', meetingsTexts.fetchError));
}

/** The prep of a chat the user owns (the chat page asks whether its agenda buttons act on a meeting). */
export async function prepOfChat(ctx: AuthedContext, input: { chatId: number }) {
  const prep = await ctx.em.findOne(MeetingPrep, { owner: ctx.user.id, chat: input.chatId });
  if (!prep) return { prep: null };
  const sample = isSampleMeetingId(prep.eventId) && seesSampleMeetings(ctx.deps.config, ctx.user);
  const now = Date.now();
  const ended = prep.endAt.getTime() <= now;
  return {
    prep: {
      meetingId: prep.eventId,
      subject: prep.subject,
      start: prep.invite.start,
      end: prep.invite.end,
      attendees: prep.invite.attendees,
      organizer: prep.invite.organizer,
      agendaSavedAt: prep.agendaSavedAt?.toISOString() ?? null,
      agendaEmailedAt: prep.agendaEmailedAt?.toISOString() ?? null,
      needsReflection: ended && !prep.reflectedAt && now - prep.endAt.getTime() <= 24 * 3_600_000,
      sample,
    },
  };
}

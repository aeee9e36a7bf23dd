import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { AgendaInput } from '../../../shared/schemas/meetings.js';
import { meetingsTexts } from '../../../shared/texts/meetings.js';
import { MeetingPrep } from '../../db/entities/MeetingPrep.js';
import type { AuthedContext } from '../../trpc/context.js';
import { asPublicError, openMicrosoft365 } from '../microsoft/index.js';
import type { GraphEventWithBody } from '../../providers/microsoft/graphCalendar.js';
import { GraphRequestError } from '../../providers/microsoft/graphMail.js';
import { forgetCalendar, requireCalendar } from './calendar.js';
import { htmlToText, inviteOf, ownEvent } from './prepMeeting.js';
import { isSampleMeetingId, sampleMeeting, seesSampleMeetings } from './sampleMeetings.js';

// The agenda acts on the real meeting: written into the invite's body (only the
// organizer may), or emailed from the user's mailbox to every other participant.

// The agenda's section in an invite is found again by these markers, so saving twice replaces it.
const startMarker = '<!-- ai-coach-agenda:start -->';
const endMarker = '<!-- ai-coach-agenda:end -->';
// Exchange may drop comments when it rewrites a body; the section's own element is found then.
const sectionIds = ['id="ai-coach-agenda"', 'id="x_ai-coach-agenda"'];

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The agenda (plain text or the coach's Markdown-ish lines) as simple HTML. */
export function agendaHtml(text: string): string {
  const lines = text.replace(/\r/g, '').split('\n');
  const html = lines
    .map((line) => escapeHtml(line).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>'))
    .join('<br>\n');
  return `<div id="ai-coach-agenda"><p><strong>${meetingsTexts.agendaHeading}</strong></p><p>${html}</p></div>`;
}

/** `html` without every section between our markers (an unclosed one is kept as it is). */
function withoutSections(html: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const start = html.indexOf(startMarker, at);
    const end = start < 0 ? -1 : html.indexOf(endMarker, start + startMarker.length);
    if (end < 0) return out + html.slice(at);
    out += html.slice(at, start);
    at = end + endMarker.length;
  }
}

/**
 * `html` without every element of ours that Exchange kept without the markers: a `<div>` whose
 * `id` is the section's (Exchange prefixes ids with `x_`), to its first `</div>` (the section has
 * no element of its own inside that closes a div). Found with indexOf, in one pass: the invite's
 * body is input, and a pattern with `[^>]*` on both sides of the id backtracked polynomially on it.
 */
function withoutSectionDivs(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let at = 0;
  // Each <div ...> tag is read once, from `at` on: the scan never goes back.
  for (let div = lower.indexOf('<div', at); div >= 0; div = lower.indexOf('<div', at)) {
    const tagEnd = lower.indexOf('>', div);
    if (tagEnd < 0) break;
    const tag = lower.slice(div, tagEnd);
    if (!/^<div\s/.test(tag) || !sectionIds.some((id) => tag.includes(id))) {
      out += html.slice(at, tagEnd + 1);
      at = tagEnd + 1;
      continue;
    }
    const close = lower.indexOf('</div>', tagEnd);
    if (close < 0) break;
    out += html.slice(at, div);
    at = close + '</div>'.length;
  }
  return out + html.slice(at);
}

/** The invite's body with the agenda section at the top: any earlier one replaced, the invite's own text kept below. */
export function bodyWithAgenda(currentHtml: string, text: string): string {
  const section = `${startMarker}${agendaHtml(text)}${endMarker}`;
  const withoutOld = withoutSectionDivs(withoutSections(currentHtml));
  // The end of the <body ...> tag, found with indexOf (no regex that could backtrack on input).
  const bodyTag = withoutOld.toLowerCase().indexOf('<body');
  const bodyOpenEnd = bodyTag < 0 ? -1 : withoutOld.indexOf('>', bodyTag);
  if (bodyOpenEnd >= 0) {
    const at = bodyOpenEnd + 1;
    return `${withoutOld.slice(0, at)}${section}<hr>${withoutOld.slice(at).replace(/^\s*<hr>/, '')}`;
  }
  const rest = withoutOld.replace(/^\s*<hr>/, '').trim();
  return rest ? `${section}<hr>${rest}` : section;
}

export async function saveAgenda(ctx: AuthedContext, input: AgendaInput) {
  const sample = await sampleAgendaAction(ctx, input, meetingsTexts.sampleNotSaved);
  if (sample) return { ...sample, agendaSavedAt: null };
  const calendar = await requireCalendar(ctx.deps, ctx.em, ctx.user.id);
  const event = await ownEvent(calendar, input.id, 'html', meetingsTexts.saveAgendaError);
  if (!event.isOrganizer) throw new TRPCError({ code: 'FORBIDDEN', message: meetingsTexts.notOrganizer });
  try {
    await calendar.graph.updateEventBody(input.id, bodyWithAgenda(event.body.content, input.text));
  } catch (error) {
    if (error instanceof GraphRequestError && error.status === 403) throw new TRPCError({ code: 'FORBIDDEN', message: meetingsTexts.notOrganizer });
    throw asPublicError(error, meetingsTexts.saveAgendaError);
  }
  const savedAt = new Date();
  await recordAgenda(ctx, event, { agendaSavedAt: savedAt });
  forgetCalendar(ctx.deps.microsoft.calendarCache, ctx.user.id);
  return { success: true as const, sample: false as const, sent: true as const, meetingId: input.id, subject: event.subject, agendaSavedAt: savedAt.toISOString() };
}

export async function emailAgenda(ctx: AuthedContext, input: AgendaInput) {
  const sample = await sampleAgendaAction(ctx, input, meetingsTexts.sampleNotEmailed);
  if (sample) return { ...sample, recipients: [] };
  const { calendar, mail: mailbox } = await openMicrosoft365(ctx.deps, ctx.em, ctx.user.id);
  if (!calendar) throw new TRPCError({ code: 'CONFLICT', message: meetingsTexts.notConnected });
  const event = await ownEvent(calendar, input.id, 'text', meetingsTexts.emailAgendaError);
  // Sending needs Mail.Send, which the 'Microsoft Email' connection holds.
  if (!mailbox) throw new TRPCError({ code: 'CONFLICT', message: meetingsTexts.mailNotConnected });
  const own = new Set([calendar.accountEmail, mailbox.accountEmail].filter((e): e is string => Boolean(e)).map((e) => e.toLowerCase()));
  const seen = new Set<string>();
  const recipients = [event.organizer, ...event.attendees]
    .filter((person) => person.email && !own.has(person.email.toLowerCase()))
    .filter((person) => {
      const key = person.email.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((person) => ({ name: person.name, email: person.email }));
  if (!recipients.length) throw new TRPCError({ code: 'BAD_REQUEST', message: meetingsTexts.noRecipients });
  const subject = meetingsTexts.agendaSubject(event.subject);
  try {
    await mailbox.graph.sendMail({ subject, html: agendaHtml(input.text), to: recipients });
  } catch (error) {
    throw asPublicError(error, meetingsTexts.emailAgendaError);
  }
  await recordAgenda(ctx, event, { agendaEmailedAt: new Date() });
  return { success: true as const, sample: false as const, sent: true as const, meetingId: input.id, subject, recipients };
}

/**
 * A demo visitor's agenda action on a sample meeting: nothing is saved or sent anywhere (there is
 * no invite and no one to email), and the answer says so. Null for any other meeting.
 */
async function sampleAgendaAction(ctx: AuthedContext, input: AgendaInput, message: string) {
  if (!seesSampleMeetings(ctx.deps.config, ctx.user) || !isSampleMeetingId(input.id)) return null;
  const prep = await ctx.em.findOne(MeetingPrep, { owner: ctx.user.id, eventId: input.id }, { fields: ['subject'] });
  const subject = prep?.subject ?? sampleMeeting(ctx.user, input.id, 'UTC')?.subject;
  if (subject === undefined) throw new TRPCError({ code: 'NOT_FOUND', message: meetingsTexts.notFound });
  return { success: true as const, sample: true as const, sent: false as const, meetingId: input.id, subject, message };
}

/**
 * Records an agenda action on the meeting's row: its prep's, or, for a meeting never prepared, a
 * row of its own without a chat (which a later Prepare completes), so GET /api/meetings shows it.
 */
async function recordAgenda(ctx: AuthedContext, event: GraphEventWithBody, done: { agendaSavedAt: Date } | { agendaEmailedAt: Date }) {
  const where = { owner: ctx.user.id, eventId: event.id };
  if (await ctx.em.nativeUpdate(MeetingPrep, where, done)) return;
  const { startAt, endAt, ...invite } = inviteOf(event);
  try {
    await ctx.em.insert(MeetingPrep, { ...where, chat: null, subject: invite.subject.slice(0, 400), startAt, endAt, invite, createdAt: new Date(), ...done });
  } catch (error) {
    // Prepared or recorded meanwhile (another tab): that row takes it.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    await ctx.em.nativeUpdate(MeetingPrep, where, done);
  }
}

/**
 * The items of the agenda saved into an invite's body (the section between our markers, or our
 * element where Exchange dropped them): one per line, without list marks or bold; null when the
 * body holds no agenda of ours.
 */
export function agendaItemsOf(html: string): string[] | null {
  let section: string | null = null;
  const start = html.indexOf(startMarker);
  const end = start < 0 ? -1 : html.indexOf(endMarker, start + startMarker.length);
  if (end >= 0) section = html.slice(start + startMarker.length, end);
  else {
    const lower = html.toLowerCase();
    const at = sectionIds.map((id) => lower.indexOf(id)).find((i) => i >= 0);
    const close = at === undefined ? -1 : lower.indexOf('</div>', at);
    if (at !== undefined && close >= 0) section = html.slice(html.lastIndexOf('<', at), close);
  }
  if (section === null) return null;
  return htmlToText(section)
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').replace(/\*\*/g, '').trim())
    .filter((line) => line && line.toLowerCase() !== meetingsTexts.agendaHeading.toLowerCase())
    .slice(0, 30);
}

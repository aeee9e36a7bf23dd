import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { computeChecks } from '../../../shared/rehearsalChecks.js';
import { computeReport, type TranscriptTurn } from '../../../shared/rehearsalReport.js';
import type { createRehearsalSchema, RehearsalReport, retryRehearsalSchema } from '../../../shared/schemas/rehearsals.js';
import { rehearsalTexts } from '../../../shared/texts/rehearsals.js';
import { apiKeyTexts } from '../../../shared/texts/apiKeys.js';
import { limitTexts } from '../../../shared/texts/limits.js';
import { lockOwner } from '../../db/ownerLock.js';
import { modelRegionOf } from '../../db/organisationPolicy.js';
import { accountBounds } from '../limits/index.js';
import { Chat } from '../../db/entities/Chat.js';
import type { MeetingInvite } from '../../../shared/meeting.js';
import { Message } from '../../db/entities/Message.js';
import { Rehearsal } from '../../db/entities/Rehearsal.js';
import type { AuthedContext } from '../../trpc/context.js';
import { factSourcesOf } from '../../trpc/factSources.js';
import { consumeModelTurn } from '../ai/index.js';
import { requireCalendar } from '../meetings/index.js';
import { inviteOf, ownEvent } from '../meetings/index.js';
import { sampleMeeting, sampleTimeZone, seesSampleMeetings } from '../meetings/index.js';
import { ChatCallRefused, placeChatCall } from '../telephony/index.js';
import { judgeRehearsal } from './judge.js';
import { memoriesNaming, roleFromMemories } from './rehearsalFacts.js';
import { reportText } from './reportText.js';
import { setUpOf, type SetUp } from './setUp.js';

// Rehearsals: a chat in which the model plays the other person of a hard conversation
// (the counterpart's context is loaded by rehearsalFacts.ts and played through the one coach turn),
// the report after it, and a retry from any of the user's turns.

export type RehearsalView = {
  id: number;
  chatId: number;
  counterpart: { name: string; role: string | null; relationship: string | null };
  situation: string;
  goal: string;
  difficulty: Rehearsal['difficulty'];
  meetingId: string | null;
  retryOf: number | null;
  report: RehearsalReport | null;
  /** The coach's report messages posted into the chat (the other person's lines are the rest). */
  reportMessageIds: number[];
  /** The demo's finished example: the template's, or a visitor's copy. */
  sample: boolean;
  createdAt: string;
};

export function rehearsalView(rehearsal: Rehearsal): RehearsalView {
  return {
    id: rehearsal.id,
    // A visitor's copy of the demo's example chat answers to the template's id, as in the chat list.
    chatId: rehearsal.chat.sampleOf ?? rehearsal.chat.id,
    counterpart: { name: rehearsal.counterpartName, role: rehearsal.counterpartRole ?? null, relationship: rehearsal.counterpartRelationship ?? null },
    situation: rehearsal.situation,
    goal: rehearsal.goal,
    difficulty: rehearsal.difficulty,
    meetingId: rehearsal.meetingId ?? null,
    retryOf: rehearsal.retryOf ?? null,
    report: rehearsal.report ?? null,
    reportMessageIds: rehearsal.reportMessageIds ?? [],
    sample: rehearsal.isSample,
    createdAt: rehearsal.createdAt.toISOString(),
  };
}

type Person = { name: string; role: string | null; relationship: string | null; email: string | null };

/** The other person of a meeting: its organizer, or its first attendee who is not the user. */
async function counterpartOfMeeting(ctx: AuthedContext, meetingId: string, timeZone: string | undefined): Promise<Person> {
  let invite: MeetingInvite;
  let own: string | null = null;
  if (seesSampleMeetings(ctx.deps.config, ctx.user)) {
    const sample = sampleMeeting(ctx.user, meetingId, await sampleTimeZone(ctx, timeZone));
    if (!sample) throw new TRPCError({ code: 'NOT_FOUND', message: rehearsalTexts.meetingNotFound });
    invite = sample;
  } else {
    const calendar = await requireCalendar(ctx.deps, ctx.em, ctx.user.id);
    own = calendar.accountEmail?.toLowerCase() ?? null;
    invite = inviteOf(await ownEvent(calendar, meetingId, 'text', rehearsalTexts.meetingNotFound));
  }
  const me = ctx.user.fullName.trim().toLowerCase();
  const isMe = (p: { name: string; email: string }) => (own !== null && p.email.toLowerCase() === own) || (me !== '' && p.name.trim().toLowerCase() === me);
  const other = [invite.organizer, ...invite.attendees].find((p) => (p.name || p.email) && !isMe(p));
  if (!other) throw new TRPCError({ code: 'BAD_REQUEST', message: rehearsalTexts.noCounterpartInMeeting });
  return { name: (other.name || other.email).slice(0, 100), role: null, relationship: other === invite.organizer ? 'organizer of the meeting' : 'attendee of the meeting', email: other.email || null };
}

export async function startRehearsal(ctx: AuthedContext, input: z.output<typeof createRehearsalSchema>): Promise<{ id: number; chatId: number }> {
  // A meeting's counterpart is read from the calendar: a key needs calendar:read for it, as for
  // GET /api/meetings, and is refused before the calendar is read (else 404 against 201 would tell
  // whether an event id exists).
  if (input.meetingId && !factSourcesOf(ctx.session).calendar) throw new TRPCError({ code: 'FORBIDDEN', message: apiKeyTexts.missingScope('calendar:read') });
  const fromMeeting = input.meetingId ? await counterpartOfMeeting(ctx, input.meetingId, input.timeZone) : null;
  const given = input.counterpart;
  const person: Person = given
    ? { name: given.name, role: given.role ?? null, relationship: given.relationship ?? null, email: fromMeeting && fromMeeting.name === given.name ? fromMeeting.email : null }
    : fromMeeting!;
  // The person of a meeting, whose role the user left empty: as the user's memory has it.
  if (fromMeeting && !person.role) person.role = roleFromMemories(person.name, await memoriesNaming(ctx.em, ctx.user.id, person.name));
  return createRehearsal(ctx, {
    counterpartName: person.name,
    counterpartRole: person.role,
    counterpartRelationship: person.relationship,
    counterpartEmail: person.email,
    situation: input.situation,
    goal: input.goal,
    difficulty: input.difficulty,
    meetingId: input.meetingId ?? null,
    retryOf: null,
  });
}

async function createRehearsal(ctx: AuthedContext, setUp: SetUp, turns: Array<Pick<Message, 'role' | 'content' | 'status'>> = [], take = 1) {
  const title = take > 1 ? rehearsalTexts.retryTitle(setUp.counterpartName, take) : rehearsalTexts.chatTitle(setUp.counterpartName);
  return ctx.em.transactional(async (em) => {
    // What an account holds is bounded (each rehearsal is a chat with its turns): counted under the owner's row lock.
    await lockOwner(em, ctx.user.id);
    if ((await em.count(Rehearsal, { owner: ctx.user.id })) >= accountBounds.maxRehearsals) throw new TRPCError({ code: 'CONFLICT', message: limitTexts.tooManyRehearsals(accountBounds.maxRehearsals) });
    if ((await em.count(Chat, { owner: ctx.user.id })) >= accountBounds.maxChats) throw new TRPCError({ code: 'CONFLICT', message: limitTexts.tooManyChats(accountBounds.maxChats) });
    const chat = em.create(Chat, { owner: ctx.user.id, title: title.slice(0, 200), isPinned: false, isTemporary: false, isRehearsal: true });
    const rehearsal = em.create(Rehearsal, { owner: ctx.user.id, chat, ...setUp, report: null });
    for (const turn of turns) em.create(Message, { chat, role: turn.role, content: turn.content, status: turn.status });
    await em.flush();
    return { id: rehearsal.id, chatId: chat.id };
  });
}

async function ownRehearsal(ctx: AuthedContext, id: number): Promise<Rehearsal> {
  const rehearsal = await ctx.em.findOne(Rehearsal, { id, owner: ctx.user.id }, { populate: ['chat'] });
  if (!rehearsal) throw new TRPCError({ code: 'NOT_FOUND', message: rehearsalTexts.notFound });
  return rehearsal;
}

export async function getRehearsal(ctx: AuthedContext, input: { id: number }): Promise<RehearsalView> {
  return rehearsalView(await ownRehearsal(ctx, input.id));
}

/** The user's rehearsals, newest first. */
export async function listRehearsals(ctx: AuthedContext): Promise<{ rehearsals: RehearsalView[] }> {
  const rows = await ctx.em.find(Rehearsal, { owner: ctx.user.id }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 200, populate: ['chat'] });
  return { rehearsals: rows.map(rehearsalView) };
}

/** The rehearsal of a chat, for the chat page (its 'Try again from here' and report buttons). */
export async function rehearsalOfChat(ctx: AuthedContext, input: { chatId: number }): Promise<{ rehearsal: RehearsalView | null }> {
  const rehearsal = await ctx.em.findOne(Rehearsal, { owner: ctx.user.id, chat: input.chatId }, { populate: ['chat'] });
  return { rehearsal: rehearsal ? rehearsalView(rehearsal) : null };
}

/** What was said in the rehearsal, in order: the user's turns and the counterpart's, not the reports posted into it. */
async function transcriptOf(ctx: AuthedContext, rehearsal: Rehearsal): Promise<Array<TranscriptTurn & { id: number }>> {
  const messages = await ctx.em.find(
    Message,
    { chat: rehearsal.chat.id, role: { $in: ['user', 'assistant'] }, status: { $in: ['complete', 'stopped'] }, content: { $ne: '' } },
    { orderBy: { id: 'asc' }, fields: ['id', 'role', 'content'] },
  );
  const reports = new Set(rehearsal.reportMessageIds ?? []);
  return messages
    .filter((m) => !reports.has(m.id))
    .map((m) => ({ id: m.id, role: m.role === 'user' ? ('user' as const) : ('counterpart' as const), content: m.content }));
}

/** The report after the rehearsal: computed exactly, judged where it can be; stored and posted into the chat. */
export async function rehearsalFeedback(ctx: AuthedContext, input: { id: number }): Promise<{ report: RehearsalReport }> {
  const rehearsal = await ownRehearsal(ctx, input.id);
  const transcript = await transcriptOf(ctx, rehearsal);
  if (!transcript.some((turn) => turn.role === 'user')) throw new TRPCError({ code: 'BAD_REQUEST', message: rehearsalTexts.nothingToReview });
  const computed = computeReport(transcript);
  const checked = computeChecks(transcript, rehearsal.goal);
  // The model's judgement is a model turn of the day's quota; once spent, the offline judgement.
  let useModel = ctx.deps.coach.kind === 'openai';
  if (useModel) {
    try {
      await consumeModelTurn(ctx);
    } catch {
      useModel = false;
    }
  }
  const judged = await judgeRehearsal(
    ctx.deps,
    {
      transcript: transcript.map(({ role, content }) => ({ role, content })),
      goal: rehearsal.goal,
      situation: rehearsal.situation,
      counterpart: { name: rehearsal.counterpartName, role: rehearsal.counterpartRole ?? null, relationship: rehearsal.counterpartRelationship ?? null },
      difficulty: rehearsal.difficulty,
    },
    computed,
    // Asked in the model region of the user's organisation.
    useModel ? { region: await modelRegionOf(ctx.em, ctx.user.id) } : null,
    checked.checks,
  );
  const report: RehearsalReport = { ...computed, ...checked, judged, createdAt: new Date().toISOString() };
  const message = ctx.em.create(Message, { chat: rehearsal.chat.id, role: 'assistant', content: reportText(report), status: 'complete' });
  await ctx.em.flush();
  rehearsal.report = report;
  rehearsal.reportMessageIds = [...(rehearsal.reportMessageIds ?? []), message.id];
  await ctx.em.flush();
  ctx.deps.chatBus.publish(rehearsal.chat.id, { type: 'message.created', message: message.toDto() });
  return { report };
}

/** A new rehearsal with the same set-up, whose chat holds the turns before one of the user's messages. */
export async function retryRehearsal(ctx: AuthedContext, input: z.output<typeof retryRehearsalSchema>): Promise<{ id: number; chatId: number }> {
  // Each retry copies the rehearsal's turns: so many an hour per user (429 past it).
  await ctx.deps.rateLimits.rehearsalRetries.consume(String(ctx.user.id));
  const rehearsal = await ownRehearsal(ctx, input.id);
  const transcript = await transcriptOf(ctx, rehearsal);
  const from = transcript.findIndex((turn) => turn.id === input.fromMessageId);
  if (from < 0 || transcript[from]!.role !== 'user') throw new TRPCError({ code: 'BAD_REQUEST', message: rehearsalTexts.fromMessageInvalid });
  const earlier = transcript.slice(0, from).map((turn) => ({ role: turn.role === 'user' ? ('user' as const) : ('assistant' as const), content: turn.content, status: 'complete' as const }));
  return createRehearsal(ctx, setUpOf(rehearsal, rehearsal.id), earlier, await nextTake(ctx, rehearsal));
}

/** Which take a new retry of this rehearsal is: one more than the first rehearsal and all the retries made from it. */
async function nextTake(ctx: AuthedContext, rehearsal: Rehearsal): Promise<number> {
  const rows = await ctx.em.find(Rehearsal, { owner: ctx.user.id, counterpartName: rehearsal.counterpartName }, { fields: ['id', 'retryOf'], limit: 1_000 });
  const parent = new Map(rows.map((row) => [row.id, row.retryOf ?? null]));
  const rootOf = (id: number) => {
    let at = id;
    for (let hops = 0; hops < 1_000 && parent.get(at) != null; hops++) at = parent.get(at)!;
    return at;
  };
  const root = rootOf(rehearsal.id);
  return rows.filter((row) => rootOf(row.id) === root).length + 1;
}

/**
 * The rehearsal held by phone: the other person calls the user's verified number, and each spoken
 * turn of the call goes into the rehearsal's chat (telephony/chatCall.ts, the one spoken-turn engine).
 */
export async function callRehearsal(ctx: AuthedContext, input: { id: number }): Promise<{ callSid: string; chatId: number; message: string }> {
  const rehearsal = await ownRehearsal(ctx, input.id);
  try {
    const { callSid } = await placeChatCall(ctx.deps, ctx.em, ctx.user.id, rehearsal.chat.id);
    return { callSid, chatId: rehearsal.chat.id, message: rehearsalTexts.callPlaced(rehearsal.counterpartName) };
  } catch (error) {
    if (!(error instanceof ChatCallRefused)) throw error;
    const code = ({ not_configured: 'PRECONDITION_FAILED', turned_off: 'FORBIDDEN', no_verified_phone: 'PRECONDITION_FAILED', country_not_allowed: 'BAD_REQUEST', chat_not_found: 'NOT_FOUND', rate_limited: 'TOO_MANY_REQUESTS', provider_failed: 'BAD_GATEWAY' } as const)[error.refusal];
    throw new TRPCError({ code, message: error.message, cause: error });
  }
}

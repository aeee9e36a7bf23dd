import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { countWords } from '../../../shared/rehearsalReport.js';
import type { debriefRefSchema, DebriefCoach, DebriefReport, DebriefTrendPoint, DebriefView, RehearsedBehaviour, RehearsedCheck, recentMeetingsSchema } from '../../../shared/schemas/debriefs.js';
import { debriefTexts } from '../../../shared/texts/debriefs.js';
import { limitTexts } from '../../../shared/texts/limits.js';
import { Chat } from '../../db/entities/Chat.js';
import { Debrief } from '../../db/entities/Debrief.js';
import { MeetingPrep } from '../../db/entities/MeetingPrep.js';
import { Message } from '../../db/entities/Message.js';
import { Rehearsal } from '../../db/entities/Rehearsal.js';
import { lockOwner } from '../../db/ownerLock.js';
import { modelRegionOf } from '../../db/organisationPolicy.js';
import { GraphRequestError } from '../../providers/microsoft/graphClient.js';
import { graphTranscripts, type GraphTranscripts } from '../../providers/microsoft/graphTranscripts.js';
import type { AuthedContext } from '../../trpc/context.js';
import { accountBounds } from '../limits/index.js';
import { agendaItemsOf, meetingView, ownEvent, requireCalendar, sampleMeeting, sampleTimeZone, seesSampleMeetings } from '../meetings/index.js';
import { accessTokenFor, asPublicError, findConnection, type GraphDeps } from '../microsoft/index.js';
import { startRehearsal } from '../rehearsals/index.js';
import { consumeModelTurn } from '../ai/index.js';
import { debriefMessage, longTurnSeconds } from './coachDebrief.js';
import { readDebrief } from './modelCoach.js';
import { computeDebrief, meetingChecks, speaksIn, turnsOf, type Turn } from './computeDebrief.js';
import { sampleDebriefIds, sampleTranscript } from './sampleTranscript.js';
import { parseTranscript, TranscriptUnreadable, type Cue } from './transcript.js';

// A private debrief of a meeting the user attended, from its Teams transcript (read from Graph
// with the user's own calendar connection) or, for a demo visitor, from the sample meeting's
// made-up transcript. The transcript is read, computed on and dropped: only the numbers and the
// quotes of the user's own words the coach points at are stored. Nothing is ever posted into
// the meeting or sent to anyone in it; the debrief goes into the user's own chat.

type DebriefInput = z.output<typeof debriefRefSchema>;
/** What making a debrief reads: the app's deps, the request's (or the job's) entity manager, the user. */
export type DebriefContext = Pick<AuthedContext, 'deps' | 'em' | 'user'>;

/** What a debrief is made from: the meeting as the calendar has it, the transcript's cues, and who the user is in it. */
type Source = { subject: string; start: string; end: string; startAt: Date; endAt: Date; cues: Cue[]; userName: string; agenda: string[] | null; sample: boolean };

const teamsHost = /(?:^|\.)teams\.(?:microsoft|live)\.(?:com|us)$/i;
export function isTeamsJoinUrl(url: string | null | undefined): url is string {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && teamsHost.test(parsed.hostname);
  } catch {
    return false;
  }
}

function refuse(code: 'NOT_FOUND' | 'CONFLICT' | 'BAD_REQUEST' | 'FORBIDDEN' | 'PRECONDITION_FAILED', message: string): never {
  throw new TRPCError({ code, message });
}

/** The user's Teams meetings and transcripts, through their Microsoft Calendar connection. */
async function openTranscripts(deps: GraphDeps, em: EntityManager, userId: number): Promise<GraphTranscripts> {
  const connection = await findConnection(em, userId, 'calendar');
  if (!connection || connection.needsReconnect) refuse('CONFLICT', debriefTexts.needsPermission);
  return graphTranscripts({
    baseUrl: deps.config.microsoft.graphBaseUrl,
    accessToken: () => accessTokenFor(deps, em, connection),
    gate: (work) => deps.microsoft.gates.run(`user:${userId}`, work),
  });
}

/** Graph's refusals as the user's next step: a missing permission is a reconnect that allows it, never a 5xx. */
function transcriptError(error: unknown): TRPCError {
  if (error instanceof GraphRequestError && error.status === 403) return new TRPCError({ code: 'FORBIDDEN', message: debriefTexts.needsPermission });
  if (error instanceof GraphRequestError && error.status === 404) return new TRPCError({ code: 'CONFLICT', message: debriefTexts.noTranscript });
  return asPublicError(error, debriefTexts.fetchError);
}

async function sampleSource(ctx: DebriefContext, input: DebriefInput, now: number): Promise<Source> {
  const timeZone = await sampleTimeZone(ctx as AuthedContext, input.timeZone);
  const invite = sampleMeeting(ctx.user, input.id, timeZone);
  if (!invite) refuse('NOT_FOUND', debriefTexts.meetingNotFound);
  if (invite.endAt.getTime() > now) refuse('CONFLICT', debriefTexts.stillAhead);
  if (!invite.isOnline) refuse('BAD_REQUEST', debriefTexts.notTeams);
  const userName = ctx.user.fullName.trim() || invite.organizer.name;
  const vtt = sampleTranscript(input.id, userName, now);
  if (!vtt) refuse('CONFLICT', debriefTexts.noTranscript);
  return { subject: invite.subject, start: invite.start, end: invite.end, startAt: invite.startAt, endAt: invite.endAt, cues: parseTranscript(vtt), userName, agenda: null, sample: true };
}

async function graphSource(ctx: DebriefContext, input: DebriefInput, now: number): Promise<Source> {
  const calendar = await requireCalendar(ctx.deps, ctx.em, ctx.user.id);
  const event = await ownEvent(calendar, input.id, 'html', debriefTexts.fetchError);
  const view = meetingView(event);
  if (view.endAt.getTime() > now) refuse('CONFLICT', debriefTexts.stillAhead);
  if (!event.isOnline || !isTeamsJoinUrl(event.joinUrl)) refuse('BAD_REQUEST', debriefTexts.notTeams);
  if (!ctx.deps.config.microsoft.meetingDebriefs) refuse('PRECONDITION_FAILED', debriefTexts.debriefsOff);
  const graph = await openTranscripts(ctx.deps, ctx.em, ctx.user.id);
  let cues: Cue[] = [];
  let userName: string | null;
  try {
    const meeting = await graph.meetingByJoinUrl(event.joinUrl);
    if (!meeting) refuse('CONFLICT', debriefTexts.noOnlineMeeting);
    const transcripts = await graph.transcripts(meeting.id);
    if (!transcripts.length) refuse('CONFLICT', debriefTexts.noTranscript);
    // A meeting whose transcription was stopped and started again has several: one timeline.
    const first = Date.parse(transcripts[0]!.createdDateTime ?? '') || 0;
    for (const transcript of transcripts) {
      const offset = first ? Math.max(0, ((Date.parse(transcript.createdDateTime ?? '') || first) - first) / 1000) : 0;
      cues.push(...parseTranscript(await graph.transcriptContent(meeting.id, transcript.id), offset));
    }
    userName = await graph.displayName();
  } catch (error) {
    if (error instanceof TranscriptUnreadable) refuse('CONFLICT', debriefTexts.transcriptUnreadable);
    throw transcriptError(error);
  }
  cues = cues.sort((a, b) => a.start - b.start || a.end - b.end);
  const prep = await ctx.em.findOne(MeetingPrep, { owner: ctx.user.id, eventId: input.id }, { fields: ['agendaSavedAt'] });
  const agenda = prep?.agendaSavedAt ? agendaItemsOf(event.body.content) : null;
  return { subject: view.subject, start: view.start, end: view.end, startAt: view.startAt, endAt: view.endAt, cues, userName: userName || ctx.user.fullName, agenda, sample: false };
}

export function debriefView(row: Debrief): DebriefView {
  return {
    id: row.id,
    meetingId: row.eventId,
    subject: row.subject,
    start: row.startAt.toISOString(),
    end: row.endAt.toISOString(),
    report: row.report,
    coach: row.coach,
    rehearsed: row.rehearsed ?? null,
    chatId: row.chat?.id ?? null,
    sample: row.isSample,
    createdAt: row.createdAt.toISOString(),
  };
}

/** POST /api/meetings/{id}/debrief: the transcript read, the report computed, the coach's reading, the chat opened with it. */
export async function createDebrief(ctx: DebriefContext & { clientIp?: string }, input: DebriefInput, now = Date.now()): Promise<{ debrief: DebriefView }> {
  const source = seesSampleMeetings(ctx.deps.config, ctx.user) ? await sampleSource(ctx, input, now) : await graphSource(ctx, input, now);
  if (!source.cues.length) refuse('CONFLICT', debriefTexts.noTranscript);
  if (!speaksIn(source.cues, source.userName)) refuse('CONFLICT', debriefTexts.notInTranscript(source.userName));
  const report = computeDebrief(source.cues, source.userName, source.agenda);
  const turns = turnsOf(source.cues, source.userName);
  // The model's reading is a model turn of the day's quota (a request's only); once spent, the offline coach's.
  let useModel = ctx.deps.coach.kind === 'openai' && Boolean(ctx.deps.providers.debriefCoach) && ctx.clientIp !== undefined;
  if (useModel) useModel = await consumeModelTurn({ deps: ctx.deps, user: ctx.user, clientIp: ctx.clientIp! }).then(() => true, () => false);
  // Asked in the model region of the user's organisation.
  const coach = await readDebrief(ctx.deps, source.subject, turns, report, useModel ? { region: await modelRegionOf(ctx.em, ctx.user.id) } : null);
  const rehearsed = await rehearsedCheck(ctx.em, ctx.user.id, input.id, source.endAt, turns, report);
  const row = await storeDebrief(ctx, input.id, source, report, coach, rehearsed);
  return { debrief: debriefView(row) };
}

async function storeDebrief(ctx: DebriefContext, eventId: string, source: Source, report: DebriefReport, coach: DebriefCoach, rehearsed: RehearsedCheck | null): Promise<Debrief> {
  const fields = { subject: source.subject.slice(0, 400), startAt: source.startAt, endAt: source.endAt, report, coach, rehearsed, isSample: source.sample };
  const existing = await ctx.em.findOne(Debrief, { owner: ctx.user.id, eventId }, { populate: ['chat'] });
  if (existing) {
    ctx.em.assign(existing, fields);
    await ctx.em.flush();
    return existing;
  }
  const content = debriefMessage(source.subject, report, coach);
  try {
    const made = await ctx.em.transactional(async (em) => {
      await lockOwner(em, ctx.user.id);
      // The meeting's own chat (its prep, where 'How did it go?' is asked) takes the debrief; else one of its own.
      const prep = await em.findOne(MeetingPrep, { owner: ctx.user.id, eventId }, { populate: ['chat'] });
      let chat = prep?.chat ?? null;
      if (!chat) {
        if ((await em.count(Chat, { owner: ctx.user.id })) >= accountBounds.maxChats) refuse('CONFLICT', limitTexts.tooManyChats(accountBounds.maxChats));
        chat = em.create(Chat, { owner: ctx.user.id, title: debriefTexts.chatTitle(source.subject).slice(0, 200), isPinned: false, isTemporary: false });
      }
      const message = em.create(Message, { chat, role: 'assistant', content, status: 'complete' });
      const debrief = em.create(Debrief, { owner: ctx.user.id, eventId, chat, ...fields });
      await em.flush();
      return { debrief, message, chatId: chat.id };
    });
    ctx.deps.chatBus.publish(made.chatId, { type: 'message.created', message: made.message.toDto() });
    return made.debrief;
  } catch (error) {
    // Debriefed meanwhile (a double click, another tab): that one stands, with today's numbers.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    const raced = await ctx.em.fork().findOneOrFail(Debrief, { owner: ctx.user.id, eventId }, { populate: ['chat'] });
    return raced;
  }
}

async function ownDebrief(ctx: AuthedContext, eventId: string): Promise<Debrief> {
  const row = await ctx.em.findOne(Debrief, { owner: ctx.user.id, eventId }, { populate: ['chat'] });
  if (!row) refuse('NOT_FOUND', debriefTexts.notFound);
  return row;
}

/** GET /api/meetings/{id}/debrief: the user's own debrief of the meeting, 404 when none. */
export async function getDebrief(ctx: AuthedContext, input: { id: string }): Promise<{ debrief: DebriefView }> {
  return { debrief: debriefView(await ownDebrief(ctx, input.id)) };
}

/**
 * POST /api/meetings/{id}/debrief/rehearse: a rehearsal of the debrief's weakest moment (the
 * first moment to do differently), with the other speaker who spoke most as the counterpart.
 */
export async function rehearseDebrief(ctx: AuthedContext, input: DebriefInput): Promise<{ id: number; chatId: number }> {
  const row = await ownDebrief(ctx, input.id);
  const moment = row.coach.moments[0];
  const counterpart = row.report.speakers[0];
  if (!moment || !counterpart) refuse('BAD_REQUEST', debriefTexts.nothingToRehearse);
  return startRehearsal(ctx, {
    counterpart: { name: counterpart.name.slice(0, 100), role: undefined, relationship: undefined },
    situation: debriefTexts.rehearsalSituation(row.subject, moment.at, moment.note),
    goal: debriefTexts.rehearsalGoal(moment.instead ?? moment.note),
    difficulty: 'realistic',
    meetingId: input.id,
    timeZone: input.timeZone,
  });
}

const behaviourOfMoment: Record<string, RehearsedBehaviour> = { interruption: 'letThemFinish', longTurn: 'shorterTurns', talkShare: 'talkLess', fillers: 'fewerFillers' };

/**
 * What the user rehearsed with someone who spoke in this meeting (their latest rehearsal with
 * that person made before the meeting ended, from another meeting or none), and whether each rehearsed behaviour showed up:
 * the agreement asked for, the pushback acknowledged, less talk, letting them finish, shorter
 * turns, fewer fillers. Null when they rehearsed with no one here.
 */
export async function rehearsedCheck(em: EntityManager, userId: number, eventId: string, endAt: Date, turns: Turn[], report: DebriefReport): Promise<RehearsedCheck | null> {
  const names = new Set(report.speakers.map((s) => s.name.trim().toLowerCase()));
  if (!names.size) return null;
  // Only a rehearsal made before the meeting ended can have shaped it.
  const rehearsals = await em.find(Rehearsal, { owner: userId, isSample: false, createdAt: { $lt: endAt } }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 100 });
  const rehearsal = rehearsals.find((r) => names.has(r.counterpartName.trim().toLowerCase()) && r.meetingId !== eventId);
  if (!rehearsal) return null;
  const wanted: RehearsedBehaviour[] = [];
  const add = (b: RehearsedBehaviour) => void (wanted.includes(b) || wanted.push(b));
  const checks = rehearsal.report?.checks;
  if (checks && checks.request.status !== 'not_applicable') add('agreement');
  if (checks && checks.pushbacks.status !== 'not_applicable') add('pushback');
  if (rehearsal.report && rehearsal.report.talkRatio > 0.5) add('talkLess');
  if (rehearsal.meetingId) {
    const origin = await em.findOne(Debrief, { owner: userId, eventId: rehearsal.meetingId }, { fields: ['coach'] });
    const kind = origin?.coach.moments[0]?.kind;
    if (kind && behaviourOfMoment[kind]) add(behaviourOfMoment[kind]);
  }
  if (!wanted.length) return null;

  const seen = meetingChecks(turns);
  const fair = 1 / (report.speakers.length + 1);
  const userWords = turns.filter((t) => t.isUser).reduce((sum, t) => sum + countWords(t.text), 0);
  const behaviours: RehearsedCheck['behaviours'] = [];
  for (const behaviour of wanted) {
    if (behaviour === 'agreement') behaviours.push({ behaviour, done: seen.request.status === 'passed', quote: seen.request.status === 'passed' ? seen.request.quote : null });
    // A meeting without a pushback cannot show whether it would have been acknowledged.
    else if (behaviour === 'pushback' && seen.pushbacks.status !== 'not_applicable') behaviours.push({ behaviour, done: seen.pushbacks.status === 'passed', quote: null });
    else if (behaviour === 'talkLess') behaviours.push({ behaviour, done: report.you.talkShare <= fair + 0.1, quote: null });
    else if (behaviour === 'letThemFinish') behaviours.push({ behaviour, done: report.you.interruptions === 0, quote: null });
    else if (behaviour === 'shorterTurns') behaviours.push({ behaviour, done: report.you.longestTurnSeconds <= longTurnSeconds, quote: null });
    else if (behaviour === 'fewerFillers') behaviours.push({ behaviour, done: report.you.fillerWords.count * 100 <= Math.max(userWords, 1), quote: null });
  }
  if (!behaviours.length) return null;
  const done = behaviours.filter((b) => b.done).length;
  return { rehearsalId: rehearsal.id, counterpart: rehearsal.counterpartName, behaviours, share: Math.round((done / behaviours.length) * 1000) / 1000 };
}

/** The Teams meetings of the last week that have ended, each with its debrief if there is one (the Meetings page lists them). */
export async function recentMeetings(ctx: AuthedContext, input: z.output<typeof recentMeetingsSchema>) {
  const now = Date.now();
  let meetings: Array<{ id: string; subject: string; start: string; end: string; attendees: number; sample: boolean }>;
  if (seesSampleMeetings(ctx.deps.config, ctx.user)) {
    const timeZone = await sampleTimeZone(ctx, input.timeZone);
    meetings = sampleDebriefIds(timeZone, now)
      .map((id) => ({ id, invite: sampleMeeting(ctx.user, id, timeZone) }))
      .filter((x) => x.invite && x.invite.endAt.getTime() <= now)
      .map(({ id, invite }) => ({ id, subject: invite!.subject, start: invite!.start, end: invite!.end, attendees: invite!.attendees.length, sample: true }));
  } else {
    const calendar = await requireCalendar(ctx.deps, ctx.em, ctx.user.id);
    let events;
    try {
      events = await calendar.graph.calendarView({ start: new Date(now - 7 * 86_400_000), end: new Date(now), timeZone: calendar.timeZone });
    } catch (error) {
      throw asPublicError(error, debriefTexts.fetchError);
    }
    meetings = events
      .map(meetingView)
      .filter((m) => m.endAt.getTime() <= now && m.isOnline && isTeamsJoinUrl(m.joinUrl))
      .reverse()
      .map((m) => ({ id: m.id, subject: m.subject, start: m.start, end: m.end, attendees: m.attendees.length, sample: false }));
  }
  const debriefs = await ctx.em.find(Debrief, { owner: ctx.user.id, eventId: { $in: meetings.map((m) => m.id) } }, { fields: ['eventId', 'createdAt'] });
  const debriefed = new Map(debriefs.map((d) => [d.eventId, d.createdAt.toISOString()]));
  return { meetings: meetings.map((m) => ({ ...m, debriefedAt: debriefed.get(m.id) ?? null })) };
}

/** GET /api/debriefs/trends: the numbers of every debriefed meeting, oldest first, from one query. */
export async function debriefTrends(ctx: AuthedContext): Promise<{ points: DebriefTrendPoint[] }> {
  const rows = await ctx.em.find(Debrief, { owner: ctx.user.id }, { orderBy: { startAt: 'asc', id: 'asc' }, limit: 500, fields: ['eventId', 'subject', 'startAt', 'report', 'rehearsed'] });
  return {
    points: rows.map((row) => ({
      meetingId: row.eventId,
      subject: row.subject,
      start: row.startAt.toISOString(),
      talkShare: row.report.you.talkShare,
      questionsAsked: row.report.you.questionsAsked,
      interruptions: row.report.you.interruptions,
      mainSpeaker: row.report.speakers[0]?.name ?? null,
      speakers: row.report.speakers.map((s) => s.name),
      rehearsedShare: row.rehearsed?.share ?? null,
    })),
  };
}

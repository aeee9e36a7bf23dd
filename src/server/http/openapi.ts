import { z } from 'zod';
import { aiCompletionSchema } from '../../shared/schemas/ai.js';
import { createApiKeySchema, type ApiKeyScope } from '../../shared/schemas/apiKeys.js';
import { checkInSchema, createGoalSchema, updateGoalSchema } from '../../shared/schemas/goals.js';
import { nudgeSettingsSchema, pushSubscriptionSchema, pushUnsubscribeSchema, runNudgeSchema } from '../../shared/schemas/nudges.js';
import { createRehearsalSchema, retryRehearsalSchema } from '../../shared/schemas/rehearsals.js';
import { createMemorySchema, memorySettingsSchema, updateMemorySchema } from '../../shared/schemas/memories.js';
import { loginSchema, registerSchema } from '../../shared/schemas/auth.js';
import { createChatSchema, messageContentSchema, messagesQuerySchema, titleSchema } from '../../shared/schemas/chats.js';
import { agendaSchema, reflectionSchema } from '../../shared/schemas/meetings.js';
import { autoDebriefsSchema } from '../../shared/schemas/debriefs.js';
import { adminAuditActions, inviteMembersSchema, memberStates, setMemberRoleSchema, updateOrganisationSchema } from '../../shared/schemas/organisations.js';
import { analyticsQuerySchema } from '../../shared/schemas/analytics.js';
import { createProgramSchema } from '../../shared/schemas/programs.js';
import {
  createFolderSchema,
  disconnectSchema,
  manualTokenSchema,
  moveEmailsSchema,
  pollTokenSchema,
  serviceInputSchema,
  serviceNameSchema,
} from '../../shared/schemas/microsoft.js';
import { confirmPhoneVerificationSchema, phonePinSchema, startPhoneVerificationSchema } from '../../shared/schemas/phone.js';
import { phoneCallSchema } from '../../shared/schemas/twilio.js';
import { synthesizeSchema, transcribeSchema, voiceHeardSchema, voiceKeepSchema, voiceTurnSchema } from '../../shared/schemas/voice.js';
import { securityEventKinds } from '../../shared/schemas/security.js';
import { sessionCookieName } from '../features/auth/session.js';
import { webhookPaths } from '../features/telephony/telephonyProvider.js';

// The OpenAPI 3.1 document of every REST path, served at GET /api/openapi.json. Request
// bodies and parameters are the same zod schemas the procedures validate with, turned into JSON
// Schema by zod itself. A test compares the routes the Express app registers with this list, so a
// new REST path without an entry here fails CI.

type Auth = 'user' | 'public' | 'session' | 'twilio';
type Operation = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** As Express writes it (':id'). */
  path: string;
  tag: string;
  summary: string;
  auth: Auth;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** The success status and what it carries. */
  ok: { status: number; description: string; contentType?: string; headers?: Record<string, { description: string; schema: object }> };
};

const id = z.string().regex(/^\d+$/).describe('A numeric id');

export const restOperations: Operation[] = [
  // Accounts and sessions (the product spec's REST calls).
  { method: 'post', path: '/api/auth/register', tag: 'Auth', summary: 'Create an account and sign in', auth: 'public', body: registerSchema, ok: { status: 201, description: 'The new user; sets the session cookie' } },
  { method: 'post', path: '/api/auth/login', tag: 'Auth', summary: 'Sign in', auth: 'public', body: loginSchema, ok: { status: 200, description: 'The user; sets the session cookie' } },
  { method: 'post', path: '/api/auth/logout', tag: 'Auth', summary: 'Sign out (ends the session on every instance)', auth: 'session', ok: { status: 200, description: '{ success: true }' } },
  { method: 'get', path: '/api/auth/session', tag: 'Auth', summary: 'Who is signed in', auth: 'public', ok: { status: 200, description: '{ user, demoMode, signedIn }' } },
  { method: 'get', path: '/api/auth/check-access', tag: 'Auth', summary: 'Pass the access-key gate (key in the x-access-key header)', auth: 'public', ok: { status: 200, description: '{ success: true }; sets the access_key grant cookie' } },
  // Personal API keys.
  { method: 'post', path: '/api/api-keys', tag: 'API keys', summary: 'Create a personal API key (the key is in this answer only; a registered account only; expiresInDays 1 to 365 optional; scopes: chat (default), goals, memories, calendar:read, mail:read)', auth: 'session', body: createApiKeySchema, ok: { status: 201, description: '{ id, name, key, prefix, createdAt, expiresAt, scopes }' } },
  { method: 'get', path: '/api/api-keys', tag: 'API keys', summary: 'List your API keys (never the keys themselves)', auth: 'session', ok: { status: 200, description: '{ keys: [{ id, name, prefix, createdAt, lastUsedAt, expiresAt, scopes }] }' } },
  { method: 'delete', path: '/api/api-keys/:id', tag: 'API keys', summary: 'Revoke an API key', auth: 'session', ok: { status: 204, description: 'Revoked' } },
  // Security activity.
  { method: 'get', path: '/api/security-events', tag: 'Security', summary: 'Your account’s security activity, newest first, a page at a time (pass nextCursor as cursor for older events)', auth: 'session', query: z.object({ cursor: z.string().optional(), limit: z.string().optional() }), ok: { status: 200, description: '{ events: [{ id, kind, createdAt, address, userAgent }], nextCursor: number | null }; kind is one of ' + securityEventKinds.join(', ') } },
  // Phone verification and the phone PIN.
  { method: 'post', path: '/api/phone/verification', tag: 'Phone', summary: 'Text a 6-digit code to a phone number (valid 10 minutes, 5 tries; a new code replaces the old)', auth: 'session', body: startPhoneVerificationSchema, ok: { status: 200, description: '{ success: true, phoneNumber, expiresInSeconds }' } },
  { method: 'post', path: '/api/phone/verification/confirm', tag: 'Phone', summary: 'Confirm the code: the number becomes your verified profile phone', auth: 'session', body: confirmPhoneVerificationSchema, ok: { status: 200, description: '{ success: true, phoneNumber, verified: true }' } },
  { method: 'put', path: '/api/phone/pin', tag: 'Phone', summary: 'Set or change the 4-digit phone PIN a caller keys in when caller ID cannot identify them', auth: 'session', body: phonePinSchema, ok: { status: 200, description: '{ success: true, pinSet: true }' } },
  { method: 'delete', path: '/api/phone/pin', tag: 'Phone', summary: 'Remove the phone PIN', auth: 'session', ok: { status: 200, description: '{ success: true, pinSet: false }' } },
  // Chats.
  { method: 'get', path: '/api/chats', tag: 'Chats', summary: 'Your chats, pinned first, then by last activity', auth: 'user', ok: { status: 200, description: 'An array of chats' } },
  { method: 'post', path: '/api/chats', tag: 'Chats', summary: 'Start a chat', auth: 'user', body: createChatSchema, ok: { status: 201, description: 'The chat' } },
  { method: 'put', path: '/api/chats/:id', tag: 'Chats', summary: 'Rename or pin a chat', auth: 'user', body: z.object({ title: titleSchema.optional(), isPinned: z.boolean().optional() }), ok: { status: 200, description: 'The chat' } },
  { method: 'delete', path: '/api/chats/:id', tag: 'Chats', summary: 'Delete a chat and its messages', auth: 'user', ok: { status: 204, description: 'Deleted' } },
  {
    method: 'get', path: '/api/chats/:id/messages', tag: 'Chats', summary: 'A page of a chat’s messages: the newest `limit` before `before`', auth: 'user', query: messagesQuerySchema,
    ok: {
      status: 200,
      description: 'Without `limit` or `before`: an array of the newest 100 messages, oldest to newest (as before). With either: `{ messages, nextCursor }`, where `nextCursor` is the id to pass as `before` for the older page, or `null` when the page reaches the start of the chat. The Next-Cursor header carries the same cursor on both forms.',
      headers: { 'Next-Cursor': { description: 'The id to send as `before` for the older page, or `null` at the start of the chat', schema: { type: 'string', pattern: '^(\\d+|null)$' } } },
    },
  },
  { method: 'post', path: '/api/chats/:id/messages', tag: 'Chats', summary: 'Send a message; the coach’s reply follows', auth: 'user', body: z.object({ role: z.literal('user').optional(), content: messageContentSchema }), ok: { status: 201, description: 'The user message; the coach’s reply streams on /ws and tRPC, and is read with GET' } },
  // Nudges.
  { method: 'get', path: '/api/nudges/settings', tag: 'Nudges', summary: 'Your nudge settings, your time zone and the next planned run', auth: 'session', ok: { status: 200, description: '{ weeklyReview, meetingBrief, channels, quietHours, maxPerWeek, timeZone, nextRun }' } },
  { method: 'put', path: '/api/nudges/settings', tag: 'Nudges', summary: 'Save your nudge settings (times as HH:MM in your time zone)', auth: 'session', body: nudgeSettingsSchema, ok: { status: 200, description: 'The settings with the next planned run' } },
  { method: 'post', path: '/api/nudges/run', tag: 'Nudges', summary: 'Run a nudge now (quiet hours and the weekly cap aside)', auth: 'session', body: runNudgeSchema, ok: { status: 202, description: '{ runId }' } },
  { method: 'get', path: '/api/nudges/unsubscribe', tag: 'Nudges', summary: 'The unsubscribe link of a nudge email (`?token=`, signed; no sign-in): answers a page with a button that turns that nudge off; the GET itself changes nothing (a mail scanner following links turns nothing off)', auth: 'public', ok: { status: 200, description: 'An HTML page; 400 for a token that is not valid' } },
  { method: 'post', path: '/api/nudges/unsubscribe', tag: 'Nudges', summary: "The page's button, or a mail client's RFC 8058 one-click request (`?token=`, signed; no sign-in; any body, such as List-Unsubscribe=One-Click): turns that nudge off and answers a page saying so", auth: 'public', ok: { status: 200, description: 'An HTML page; 400 for a token that is not valid' } },
  { method: 'get', path: '/api/push/key', tag: 'Nudges', summary: 'The VAPID public key to subscribe a browser with', auth: 'session', ok: { status: 200, description: '{ publicKey }' } },
  { method: 'post', path: '/api/push/subscriptions', tag: 'Nudges', summary: 'Take nudges as push notifications in this browser', auth: 'session', body: pushSubscriptionSchema, ok: { status: 201, description: '{ endpoint }' } },
  { method: 'delete', path: '/api/push/subscriptions', tag: 'Nudges', summary: 'Stop push notifications to this browser', auth: 'session', body: pushUnsubscribeSchema, ok: { status: 204, description: 'Removed' } },
  { method: 'get', path: '/api/nudges/runs', tag: 'Nudges', summary: 'Your nudge runs, newest first', auth: 'session', ok: { status: 200, description: '{ runs: [{ id, kind, status, channels, reason, chatId, createdAt, dueAt, trigger }] }' } },
  // Goals.
  { method: 'get', path: '/api/goals', tag: 'Goals', summary: 'Your goals with key results, check-ins, progress and status', auth: 'user', ok: { status: 200, description: '{ goals: [goal] }' } },
  { method: 'post', path: '/api/goals', tag: 'Goals', summary: 'Create a goal', auth: 'user', body: createGoalSchema, ok: { status: 201, description: 'The goal' } },
  { method: 'get', path: '/api/goals/:id', tag: 'Goals', summary: 'One goal', auth: 'user', ok: { status: 200, description: 'The goal' } },
  { method: 'put', path: '/api/goals/:id', tag: 'Goals', summary: 'Edit a goal (key results with check-ins are kept), or mark it done', auth: 'user', body: updateGoalSchema.omit({ goalId: true }), ok: { status: 200, description: 'The goal' } },
  { method: 'delete', path: '/api/goals/:id', tag: 'Goals', summary: 'Delete a goal and its check-ins', auth: 'user', ok: { status: 204, description: 'Deleted' } },
  { method: 'post', path: '/api/goals/:id/check-ins', tag: 'Goals', summary: 'Log a key result’s current value', auth: 'user', body: checkInSchema.omit({ goalId: true }), ok: { status: 201, description: 'The goal with the new check-in' } },
  // Memories and search across chats.
  { method: 'get', path: '/api/memories', tag: 'Memory', summary: 'What the coach remembers about you, newest first', auth: 'user', ok: { status: 200, description: '{ memories: [{ id, text, kind, dueAt, doneAt, sourceChatId, sensitive, createdAt, updatedAt }] }' } },
  { method: 'post', path: '/api/memories', tag: 'Memory', summary: 'Add a memory (at most 500)', auth: 'user', body: createMemorySchema, ok: { status: 201, description: 'The memory' } },
  { method: 'delete', path: '/api/memories', tag: 'Memory', summary: 'Forget everything', auth: 'user', ok: { status: 204, description: 'Deleted' } },
  { method: 'get', path: '/api/memories/settings', tag: 'Memory', summary: 'Whether the coach remembers and uses memories', auth: 'user', ok: { status: 200, description: '{ enabled }' } },
  { method: 'put', path: '/api/memories/settings', tag: 'Memory', summary: 'Turn memory on or off', auth: 'user', body: memorySettingsSchema, ok: { status: 200, description: '{ enabled }' } },
  { method: 'patch', path: '/api/memories/:id', tag: 'Memory', summary: 'Edit a memory, or close a commitment', auth: 'user', body: updateMemorySchema.omit({ memoryId: true }), ok: { status: 200, description: 'The memory' } },
  { method: 'delete', path: '/api/memories/:id', tag: 'Memory', summary: 'Delete a memory', auth: 'user', ok: { status: 204, description: 'Deleted' } },
  { method: 'get', path: '/api/search', tag: 'Search', summary: 'Search every chat (your messages and the coach’s replies), best matches first, at most 50', auth: 'user', query: z.object({ q: z.string().min(2).max(200) }), ok: { status: 200, description: '{ results: [{ chatId, chatTitle, messageId, snippet, createdAt }] }; matched words between <mark> and </mark>, the rest HTML-escaped' } },
  // Meetings.
  { method: 'get', path: '/api/rehearsals', tag: 'Rehearsals', summary: 'Your rehearsals, newest first', auth: 'user', ok: { status: 200, description: '{ rehearsals: [{ id, chatId, counterpart: { name, role, relationship }, situation, goal, difficulty, meetingId, retryOf, report, createdAt }] }' } },
  { method: 'post', path: '/api/rehearsals', tag: 'Rehearsals', summary: 'Start a rehearsal: a chat in which the model plays the other person (counterpart may be left out with meetingId: the meeting\'s organizer or first other attendee)', auth: 'user', body: createRehearsalSchema, ok: { status: 201, description: '{ id, chatId }; 404 for an unknown meeting' } },
  { method: 'get', path: '/api/rehearsals/:id', tag: 'Rehearsals', summary: 'A rehearsal with its report', auth: 'user', ok: { status: 200, description: '{ id, chatId, counterpart, situation, goal, difficulty, meetingId, retryOf, report, createdAt }' } },
  { method: 'post', path: '/api/rehearsals/:id/feedback', tag: 'Rehearsals', summary: 'The report: talk share, filler words, longest turn and questions computed exactly, with the rubric\'s checks (purpose, pushbacks, judgement, request, hedges), where it went wrong and the verdict; goal met, strengths and improvements judged (a model judge must cite the transcript). Stored and posted into the chat', auth: 'user', ok: { status: 200, description: '{ report: { talkRatio, fillerWords: { count, examples }, longestTurnWords, questionsAsked, userWords, counterpartWords, checks: { purpose, pushbacks, judgement, request, hedges: { name, status, userTurn, messageId, quote } }, wentWrong: { check, userTurn, messageId, quote } | null, verdict: { passed, failedCheck, failedChecks }, judged: { goalMet, goalReason, strengths, improvements: [{ quote, better }], citations? } | null, createdAt } }' } },
  { method: 'post', path: '/api/rehearsals/:id/call', tag: 'Rehearsals', summary: 'Hold the rehearsal by phone: the other person calls your verified number (with its own voice) and each spoken turn goes into the rehearsal\'s chat', auth: 'user', ok: { status: 202, description: '{ callSid, chatId, message }; 412 when phone calls are not configured or no number is verified, 404 for someone else\'s rehearsal, 429 after too many calls, 502 when Twilio refuses' } },
  { method: 'post', path: '/api/rehearsals/:id/retry', tag: 'Rehearsals', summary: 'Try again from one of your turns: a new rehearsal with the same set-up whose chat holds the turns before it', auth: 'user', body: retryRehearsalSchema.omit({ id: true }), ok: { status: 201, description: '{ id, chatId }' } },
  { method: 'get', path: '/api/meetings', tag: 'Meetings', summary: 'The coming meetings of your Microsoft calendar (series expanded, cancelled left out), ordered by start', auth: 'user', query: z.object({ days: z.string().regex(/^\d+$/).optional().describe('1 to 14, default 7'), timeZone: z.string().optional().describe("IANA time zone dating a demo visitor's sample week when they saved none") }), ok: { status: 200, description: '{ meetings: [{ id, subject, start, end, organizer, attendees, location, isOnline, joinUrl, bodyPreview, prepChatId, agendaSavedAt, needsReflection, sample }], timeZone, sample }; a demo visitor gets the sample week (sample: true); 409 without Microsoft Calendar' } },
  { method: 'post', path: '/api/meetings/:id/prep', tag: 'Meetings', summary: "Prepare a meeting: a chat 'Prep: {subject}' whose first coach message is its agenda", auth: 'user', ok: { status: 201, description: '{ chatId } (200 with the existing prep chat)' } },
  { method: 'post', path: '/api/meetings/:id/agenda', tag: 'Meetings', summary: "Write the agenda into the invite (organizer only; the invite's own text is kept below it)", auth: 'user', body: agendaSchema.omit({ id: true }), ok: { status: 200, description: '{ success, meetingId, agendaSavedAt, sample, sent }; on a demo sample meeting nothing is sent (sent: false, message says so)' } },
  { method: 'post', path: '/api/meetings/:id/agenda/email', tag: 'Meetings', summary: "Email the agenda from your mailbox to every other participant ('Agenda: {subject}')", auth: 'user', body: agendaSchema.omit({ id: true }), ok: { status: 200, description: '{ success, subject, recipients: [{ name, email }], sample, sent }; on a demo sample meeting nothing is sent (sent: false, message says so)' } },
  { method: 'post', path: '/api/meetings/:id/reflection', tag: 'Meetings', summary: "Answer 'How did it go?' for a prepared meeting that ended in the last 24 hours", auth: 'user', body: reflectionSchema.omit({ id: true }), ok: { status: 201, description: '{ chatId, userMessage, reply } (the reflection streams into the prep chat)' } },
  { method: 'post', path: '/api/meetings/:id/debrief', tag: 'Meetings', summary: "Debrief a Teams meeting that ended, from its transcript (read from Microsoft Graph with OnlineMeetings.Read and OnlineMeetingTranscript.Read.All): your talk share, turns, longest turn, questions, filler words, pace and interruptions, each other speaker's share, the saved agenda's coverage, and the coach's strengths and moments quoting your words. Private: nothing is posted into the meeting; the transcript is not kept", auth: 'user', ok: { status: 201, description: '{ debrief: { id, meetingId, subject, start, end, report: { durationSeconds, you: { name, talkShare, turns, longestTurnSeconds, questionsAsked, fillerWords: { count, examples }, wordsPerMinute, interruptions }, speakers: [{ name, share, turns }], agenda: [{ item, discussed }] | null }, coach: { by, strengths, moments: [{ kind, seconds, at, quote, note, instead }] }, rehearsed, chatId, sample, createdAt } }; 409 for a meeting still ahead or without a transcript, 400 for a meeting that is not on Teams, 403 when the Microsoft connection lacks the transcript permissions (reconnect and allow them), 404 for an event not in your calendar' } },
  { method: 'get', path: '/api/meetings/:id/debrief', tag: 'Meetings', summary: "The meeting's debrief", auth: 'user', ok: { status: 200, description: '{ debrief }; 404 when there is none' } },
  { method: 'post', path: '/api/meetings/:id/debrief/rehearse', tag: 'Meetings', summary: "Rehearse the debrief's weakest moment, with the other speaker who spoke most as the counterpart", auth: 'user', ok: { status: 201, description: '{ id, chatId } of the new rehearsal' } },
  { method: 'get', path: '/api/debriefs/recent', tag: 'Meetings', summary: 'The Teams meetings of the last week that have ended, each with debriefedAt', auth: 'user', query: z.object({ timeZone: z.string().optional().describe("IANA time zone dating a demo visitor's sample meeting") }), ok: { status: 200, description: '{ meetings: [{ id, subject, start, end, attendees, sample, debriefedAt }] }' } },
  { method: 'get', path: '/api/debriefs/trends', tag: 'Meetings', summary: 'Your debriefed meetings, oldest first, as the trends page draws them', auth: 'user', ok: { status: 200, description: '{ points: [{ meetingId, subject, start, talkShare, questionsAsked, interruptions, mainSpeaker, speakers, rehearsedShare }] }' } },
  { method: 'get', path: '/api/debriefs/settings', tag: 'Meetings', summary: 'Whether a debrief is made on its own for every ended Teams meeting whose transcript appears (off by default)', auth: 'user', ok: { status: 200, description: '{ automatic }' } },
  { method: 'put', path: '/api/debriefs/settings', tag: 'Meetings', summary: 'Turn automatic debriefs on or off', auth: 'user', body: autoDebriefsSchema, ok: { status: 200, description: '{ automatic }' } },
  { method: 'post', path: '/api/microsoft/notifications', tag: 'Meetings', summary: "Microsoft Graph change notifications for calendars (validationToken handshake; clientState checked)", auth: 'public', ok: { status: 202, description: 'Accepted (200 text/plain echo for a validation request)' } },
  // The OpenAI-compatible surface.
  { method: 'post', path: '/api/openai/chat/completions', tag: 'OpenAI-compatible', summary: 'Chat Completions (streamed with stream: true; usage included)', auth: 'user', body: aiCompletionSchema, ok: { status: 200, description: 'A chat.completion, or server-sent chat.completion.chunk events' } },
  { method: 'get', path: '/api/openai/models', tag: 'OpenAI-compatible', summary: 'The model this server answers with', auth: 'user', ok: { status: 200, description: '{ object: "list", data: [model] }' } },
  { method: 'get', path: '/api/openai/models/:id', tag: 'OpenAI-compatible', summary: 'One model, or 404', auth: 'user', ok: { status: 200, description: 'The model' } },
  // Microsoft 365.
  { method: 'get', path: '/api/auth/microsoft/login', tag: 'Microsoft', summary: 'Start browser sign-in (authorization code with PKCE)', auth: 'user', query: z.object({ service: serviceNameSchema }), ok: { status: 200, description: '{ authUrl }' } },
  { method: 'get', path: '/api/auth/microsoft/sign-in', tag: 'Microsoft', summary: 'Sign in with Microsoft: to the authority (OpenID Connect, code with PKCE; state and nonce bound to this browser by a short-lived cookie)', auth: 'public', ok: { status: 302, description: 'To the authorize endpoint; the callback then lands on /app, or /login?microsoft_error=<reason>' } },
  { method: 'get', path: '/api/auth/microsoft/link', tag: 'Microsoft', summary: 'Link a Microsoft account to the signed-in account (Settings)', auth: 'session', ok: { status: 302, description: 'To the authorize endpoint; the callback then lands on /settings?microsoft_linked=1 or /settings?microsoft_error=<reason>' } },
  { method: 'get', path: '/api/auth/microsoft/callback', tag: 'Microsoft', summary: 'The identity platform’s redirect back (a state starting msi. is a sign-in or link, any other a connection)', auth: 'public', query: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }), ok: { status: 302, description: 'To /integrations with #integration-success or #integration-error' } },
  { method: 'post', path: '/api/auth/microsoft/device-code', tag: 'Microsoft', summary: 'Start device-code sign-in (403 when MICROSOFT_DEVICE_CODE is off, the default with a client secret)', auth: 'user', body: serviceInputSchema, ok: { status: 200, description: '{ userCode, verificationUrl, expiresIn, interval, deviceCodeInfo }' } },
  { method: 'post', path: '/api/auth/microsoft/poll-token', tag: 'Microsoft', summary: 'Poll a device-code sign-in (403 when device-code sign-in is off)', auth: 'user', body: pollTokenSchema, ok: { status: 200, description: 'Pending, { expired: true }, or { success: true, service, userEmail }' } },
  { method: 'post', path: '/api/auth/microsoft/manual-token', tag: 'Microsoft', summary: 'Connect with a pasted Graph access token', auth: 'user', body: manualTokenSchema, ok: { status: 200, description: '{ success: true, userEmail }' } },
  { method: 'post', path: '/api/auth/microsoft/disconnect', tag: 'Microsoft', summary: 'Disconnect a service (its tokens are deleted)', auth: 'user', body: disconnectSchema, ok: { status: 200, description: '{ success: true }' } },
  { method: 'get', path: '/api/ai-coach/microsoft/connection-status', tag: 'Microsoft', summary: 'Which services are connected', auth: 'user', ok: { status: 200, description: '{ success, connections: { email, calendar, teams } }' } },
  { method: 'get', path: '/api/ai-coach/microsoft/emails', tag: 'Microsoft', summary: 'Up to 10 recent emails', auth: 'user', ok: { status: 200, description: '{ emails, message }' } },
  { method: 'get', path: '/api/microsoft-graph/real-emails', tag: 'Microsoft', summary: 'A page of the inbox', auth: 'user', query: z.object({ pageToken: z.string().optional() }), ok: { status: 200, description: '{ success, emails, nextPageToken }' } },
  { method: 'get', path: '/api/microsoft-email/folders', tag: 'Microsoft', summary: 'Mail folders with counts', auth: 'user', ok: { status: 200, description: '{ success, folders }' } },
  { method: 'post', path: '/api/microsoft-email/folders', tag: 'Microsoft', summary: 'Create a mail folder', auth: 'user', body: createFolderSchema, ok: { status: 201, description: '{ success, folder }' } },
  { method: 'post', path: '/api/microsoft-email/move-emails', tag: 'Microsoft', summary: 'Move emails (one result per message)', auth: 'user', body: moveEmailsSchema, ok: { status: 200, description: '{ success, results: [{ messageId, success }] }' } },
  // Writing style.
  { method: 'get', path: '/api/writing-analysis/sent-emails', tag: 'Writing style', summary: 'How many sent emails can be analysed', auth: 'user', ok: { status: 200, description: '{ success, count }' } },
  { method: 'get', path: '/api/writing-analysis/writing-style', tag: 'Writing style', summary: 'Your writing style profile', auth: 'user', ok: { status: 200, description: '{ success, hasWritingStyle, writingStyle, lastUpdated }' } },
  { method: 'post', path: '/api/writing-analysis/analyze-style', tag: 'Writing style', summary: 'Analyse your sent mail (at least 5 emails)', auth: 'user', ok: { status: 200, description: '{ success, writingStyle, emailsAnalyzed }' } },
  // Voice and phone.
  { method: 'post', path: '/api/voice/transcribe', tag: 'Voice', summary: 'Speech to text (base64 webm, up to 25 MB)', auth: 'user', body: transcribeSchema, ok: { status: 200, description: '{ success, transcription }' } },
  { method: 'post', path: '/api/voice/synthesize', tag: 'Voice', summary: 'Text to speech, streamed (mp3, or 24 kHz PCM with format: pcm)', auth: 'user', body: synthesizeSchema, ok: { status: 200, description: 'Audio', contentType: 'audio/mpeg' } },
  // The browser call.
  { method: 'post', path: '/api/voice/turn', tag: 'Voice', summary: 'One spoken turn: the reply streamed as it is written', auth: 'user', body: voiceTurnSchema, ok: { status: 200, description: 'One JSON line per event: { type: token, text }, then { type: done, chatId, messageId, reply, allowance } or { type: error, message }. allowance: the speech allowance POST /api/voice/synthesize speaks the reply\'s sentences under', contentType: 'application/x-ndjson' } },
  { method: 'post', path: '/api/voice/keep', tag: 'Voice', summary: "Save a provisional turn (its done event's keep token), with what was heard of it", auth: 'user', body: voiceKeepSchema, ok: { status: 200, description: '{ chatId, messageId }' } },
  { method: 'post', path: '/api/voice/heard', tag: 'Voice', summary: 'What the user heard of a reply they interrupted', auth: 'user', body: voiceHeardSchema, ok: { status: 200, description: '{ success }' } },
  { method: 'post', path: '/api/twilio/voice/call', tag: 'Phone', summary: 'Have the coach call a number', auth: 'user', body: phoneCallSchema, ok: { status: 200, description: '{ success, callSid, message }' } },
  { method: 'post', path: webhookPaths.incoming, tag: 'Twilio webhooks', summary: 'A call to the coach’s number (Twilio)', auth: 'twilio', ok: { status: 200, description: 'TwiML', contentType: 'text/xml' } },
  { method: 'post', path: webhookPaths.nudgeCallStatus, tag: 'Twilio webhooks', summary: 'How a nudge\'s call ended (Twilio status callback): busy, no answer, failed or canceled fails its run', auth: 'twilio', ok: { status: 204, description: 'Nothing' } },
  { method: 'post', path: webhookPaths.goalCheckIn, tag: 'Twilio webhooks', summary: 'A goal check-in call the coach placed (Twilio)', auth: 'twilio', ok: { status: 200, description: 'TwiML', contentType: 'text/xml' } },
  { method: 'post', path: webhookPaths.status, tag: 'Twilio webhooks', summary: 'Call status updates (Twilio)', auth: 'twilio', ok: { status: 200, description: 'Empty TwiML', contentType: 'text/xml' } },
  // The organisation's administration: an admin's own session only (403 for a member and for any API key).
  { method: 'post', path: '/api/admin/scim-tokens', tag: 'Organisation', summary: 'Create a SCIM provisioning token for the identity provider (the token is in this answer only)', auth: 'session', ok: { status: 201, description: '{ id, token, prefix, createdAt, lastUsedAt, revokedAt }' } },
  { method: 'get', path: '/api/admin/scim-tokens', tag: 'Organisation', summary: 'List the SCIM provisioning tokens (never the tokens themselves)', auth: 'session', ok: { status: 200, description: '{ tokens: [{ id, prefix, createdAt, lastUsedAt, revokedAt }] }' } },
  { method: 'delete', path: '/api/admin/scim-tokens/:id', tag: 'Organisation', summary: 'Revoke a SCIM provisioning token (its next request answers 401)', auth: 'session', ok: { status: 204, description: 'Revoked' } },
  { method: 'get', path: '/api/admin/members', tag: 'Organisation', summary: "The organisation's members and their state (never what they coach on)", auth: 'session', ok: { status: 200, description: '{ members: [{ id, username, fullName, email, role, adminByOperator, state, provisioned, createdAt, deprovisionedAt }] }; state is one of ' + memberStates.join(', ') } },
  { method: 'post', path: '/api/admin/invites', tag: 'Organisation', summary: 'Invite members by CSV (header row; email required; name, department, manager; at most 1,000 rows): each an account their first Sign in with Microsoft opens', auth: 'session', body: inviteMembersSchema, ok: { status: 200, description: '{ invited: number, skipped: [{ line, email, reason }] }; 400 when the CSV cannot be read or has no email column' } },
  { method: 'get', path: '/api/admin/audit', tag: 'Organisation', summary: "The organisation's audit log of admin actions, newest first, a page at a time (pass nextCursor as cursor for older events)", auth: 'session', query: z.object({ cursor: z.string().optional(), limit: z.string().optional() }), ok: { status: 200, description: '{ events: [{ id, createdAt, actorKind, actorUserId, actorName, action, target, changes }], nextCursor: number | null }; action is one of ' + adminAuditActions.join(', ') } },
  { method: 'put', path: '/api/admin/members/:id/role', tag: 'Organisation', summary: 'Name a member admin, or make an admin a member again (those ORG_ADMINS names stay admins)', auth: 'session', body: setMemberRoleSchema.pick({ role: true }), ok: { status: 200, description: 'The member' } },
  { method: 'get', path: '/api/admin/organisation', tag: 'Organisation', summary: "The organisation's settings and seats", auth: 'session', ok: { status: 200, description: '{ id, name, seats, seatsInUse, retention, nudgeChannels, phoneCalls } (and modelRegion, modelRegions when OPENAI_REGIONS is set)' } },
  { method: 'patch', path: '/api/admin/organisation', tag: 'Organisation', summary: "Change the organisation's name, seat count (null: no limit), retention (keep or delete a removed member's data), the channels nudges may use, whether phone calls are allowed, or the model region (a configured name, or null)", auth: 'session', body: updateOrganisationSchema, ok: { status: 200, description: '{ id, name, seats, seatsInUse, retention, nudgeChannels, phoneCalls } (and modelRegion, modelRegions when OPENAI_REGIONS is set)' } },
  { method: 'get', path: '/api/admin/analytics', tag: 'Organisation', summary: "How coaching is used, by week (active members, sessions by kind, goals set and completed) with the frameworks and themes of the last 12 weeks; every figure over at least ORG_ANALYTICS_MIN_GROUP people, else hidden. ?by=department|manager adds the same figures by group; 422 when such a breakdown could let a small group be worked out", auth: 'session', query: analyticsQuerySchema, ok: { status: 200, description: '{ minGroup, members, weeks: [{ week, active, sessions: { chat, voice, phone, rehearsal, debrief }, goalsSet, goalsCompleted }], frameworks, themes, labelWeeks, groups? }: each figure { value } or { hidden: small | withheld }' } },
  { method: 'get', path: '/api/admin/programs', tag: 'Organisation', summary: "The organisation's coaching programs, each with its members' count and its progress by week (each figure over at least ORG_ANALYTICS_MIN_GROUP people; progress null when the group could be singled out), and the groups and departments a program can be for", auth: 'session', ok: { status: 200, description: '{ programs: [{ id, name, focus, group, department, weeks, cadence, startsOn, endedAt, state, week, members, progress }], groups, departments }' } },
  { method: 'post', path: '/api/admin/programs', tag: 'Organisation', summary: 'Start a coaching program for a provisioned group (groupId) or a department: a focus the coach knows while it runs, nudges weekly, fortnightly or off, 1 to 52 weeks', auth: 'session', body: createProgramSchema, ok: { status: 201, description: 'The program' } },
  { method: 'post', path: '/api/admin/programs/:id/end', tag: 'Organisation', summary: 'End a program early: the coach no longer brings its focus in, and its waiting nudges are not sent', auth: 'session', ok: { status: 200, description: 'The program' } },
];

/** Routes that answer but are no operation of their own: documented here, not in the list. */
export const undocumentedRoutes: Array<{ method: string; path: string; reason: string }> = [
  { method: 'all', path: '/api/openai/{*rest}', reason: 'the OpenAI-shaped 404 for any other /api/openai path' },
  { method: 'get', path: '/api/openapi.json', reason: 'this document' },
  { method: 'get', path: '/api/docs', reason: 'the interactive reference of this document' },
  { method: 'get', path: '/api/docs/init.js', reason: 'the script that starts that reference' },
];

const messageError = z.object({
  message: z.string(),
  error: z.string().optional().describe('The same text as message, on POST /api/auth/microsoft/manual-token (SPEC section 7)'),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
});
const openAiError = z.object({ error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string().nullable() }) });

function jsonSchema(schema: z.ZodType) {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
}

const securityOf: Record<Auth, Array<Record<string, string[]>> | undefined> = {
  // The session cookie, or a personal API key on the paths one of its scopes opens
  // (securityOfUserPath); in demo mode no sign-in reads the demo template, and a first write makes
  // a private guest space (its cookie in the answer).
  user: [{ cookie: [] }, { apiKey: [] }],
  session: [{ cookie: [] }],
  public: [],
  twilio: [{ twilioSignature: [] }],
};

// Which API key scope opens a path to keys (the procedures behind them declare the same, in
// their routers); a signed-in path not listed here takes the session cookie only.
const keyScopeOfPath: Array<[RegExp, ApiKeyScope]> = [
  [/^(?:get|post|put|delete) \/api\/chats/, 'chat'],
  [/^get \/api\/search/, 'chat'],
  // Not the call: it rings a real phone, for the signed-in owner only.
  [/^(?:get|post) \/api\/rehearsals(?!\/:id\/call$)/, 'chat'],
  [/^(?:get|post) \/api\/openai\//, 'chat'],
  [/^(?:get|post|put|delete) \/api\/goals/, 'goals'],
  [/^(?:get|post|put|patch|delete) \/api\/memories/, 'memories'],
  [/^get \/api\/meetings$/, 'calendar:read'],
  [/^post \/api\/meetings\/:id\/(?:prep|reflection)$/, 'calendar:read'],
  [/^(?:get|post) \/api\/meetings\/:id\/debrief(?:\/rehearse)?$/, 'calendar:read'],
  [/^get \/api\/debriefs\/(?:recent|trends)$/, 'calendar:read'],
];

function securityOfUserPath(op: { method: string; path: string }): Array<Record<string, string[]>> {
  const scope = keyScopeOfPath.find(([pattern]) => pattern.test(`${op.method} ${op.path}`))?.[1];
  return scope ? [{ cookie: [] }, { apiKey: [scope] }] : [{ cookie: [] }];
}

let cached: object | undefined;

export function openApiDocument(): object {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of restOperations) {
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    const openAi = op.path.startsWith('/api/openai');
    const errorBody = { content: { 'application/json': { schema: jsonSchema(openAi ? openAiError : messageError) } } };
    const parameters = [
      ...[...op.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: jsonSchema(id) })),
      ...Object.entries(op.query?.shape ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: !(schema as z.ZodType).safeParse(undefined).success,
        schema: jsonSchema(schema as z.ZodType),
      })),
    ];
    const requestBody =
      op.auth === 'twilio'
        ? { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: { type: 'string' } } } } }
        : op.body
          ? { required: true, content: { 'application/json': { schema: jsonSchema(op.body) } } }
          : undefined;
    const okContent = op.ok.status === 204 || op.ok.status === 302 ? undefined : { [op.ok.contentType ?? 'application/json']: {} };
    paths[path] ??= {};
    paths[path][op.method] = {
      tags: [op.tag],
      summary: op.summary,
      operationId: `${op.method}${path.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      security: securityOf[op.auth] && op.auth === 'user' ? securityOfUserPath(op) : securityOf[op.auth],
      responses: {
        [op.ok.status]: { description: op.ok.description, ...(op.ok.headers ? { headers: op.ok.headers } : {}), ...(okContent ? { content: okContent } : {}) },
        ...(op.auth === 'twilio'
          ? { 403: { description: 'The X-Twilio-Signature does not match' } }
          : {
              400: { description: 'Bad input: the message names what is wrong', ...errorBody },
              ...(op.auth !== 'public' ? { 401: { description: 'Not signed in, or an invalid API key', ...errorBody } } : {}),
              429: { description: 'Too many requests; see Retry-After', ...errorBody },
            }),
      },
    };
  }
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'AI Coach API',
      version: '1.0.0',
      description:
        'The REST paths of AI Coach. Sign in with the session cookie (a browser) or a personal API key (Settings › API keys) sent as `Authorization: Bearer aic_...`. `/api/openai` speaks OpenAI’s Chat Completions format, so the official openai SDKs work with `baseURL` set to `<app>/api/openai`.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        cookie: { type: 'apiKey', in: 'cookie', name: sessionCookieName },
        apiKey: { type: 'http', scheme: 'bearer', description: 'A personal API key (aic_...)' },
        twilioSignature: { type: 'apiKey', in: 'header', name: 'X-Twilio-Signature' },
      },
    },
    paths,
  };
  return cached;
}

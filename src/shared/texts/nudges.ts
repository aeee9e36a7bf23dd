import { nudgesNavLabel } from './appShell.js';

const kindLabel: Record<string, string> = { weekly_review: 'Weekly review', meeting_brief: 'Meeting brief', meeting_debrief: 'Meeting debrief', program: 'Program nudge' };
const unsubscribeConfirmBody = (kind: string) => `The ${kind.toLowerCase()} will no longer be sent. You can turn it on again in Settings, Notifications.`;
const unsubscribeButton = (kind: string) => `Turn off the ${kind.toLowerCase()}`;
const emailUnsubscribe = (kind: string) => `Turn off ${kind.toLowerCase()} emails and nudges`;
const unsubscribedBody = (kind: string) => `${kind} is off. You can turn it on again in Settings, Notifications.`;

/** Where nudges are turned on again: Settings, Notifications. */
const settingsLink = { href: '/settings?tab=notifications', label: 'Settings' };

type UnsubscribeTexts = { email: string; confirmBody: string; button: string; doneBody: string; back: { href: string; label: string } };

function unsubscribeOf(kind: string): UnsubscribeTexts {
  // A debrief's nudge follows its automatic debrief: its link turns automatic debriefs off, which
  // the Meetings page turns on again.
  if (kind === 'meeting_debrief') {
    return {
      email: 'Turn off automatic debriefs',
      confirmBody: 'Your Teams meetings will no longer be debriefed automatically, and no debrief will be sent. You can turn it on again on the Meetings page.',
      button: 'Turn off automatic debriefs',
      doneBody: 'Automatic debriefs are off. You can turn them on again on the Meetings page.',
      back: { href: '/meetings', label: 'Meetings' },
    };
  }
  // A program's nudge: the organisation's program goes on; only its nudges stop.
  if (kind === 'program') {
    return {
      email: 'Turn off program nudges',
      confirmBody: 'Your organisation’s coaching program will no longer send you nudges. The program’s focus still reaches your coach in your chats.',
      button: 'Turn off program nudges',
      doneBody: 'Program nudges are off. Your organisation’s program goes on in your chats with the coach.',
      back: { href: '/app', label: 'Chat' },
    };
  }
  const label = kindLabel[kind] ?? kind;
  return { email: emailUnsubscribe(label), confirmBody: unsubscribeConfirmBody(label), button: unsubscribeButton(label), doneBody: unsubscribedBody(label), back: settingsLink };
}

// Proactive coaching: the nudge settings, the run history, and what the nudges say.
export const nudgesTexts = {
  // Validation (each names its field)
  settingsRequired: 'Send the nudge settings as a JSON object.',
  sectionRequired: (field: string) => `${field}: send it as an object.`,
  flagInvalid: (field: string) => `${field}: choose true or false.`,
  timeInvalid: (field: string) => `${field}: write a time as HH:MM, from 00:00 to 23:59.`,
  dayInvalid: 'weeklyReview.day: choose one of mon, tue, wed, thu, fri, sat, sun.',
  minutesBeforeInvalid: 'meetingBrief.minutesBefore: choose a whole number of minutes from 10 to 1440.',
  maxPerWeekInvalid: 'maxPerWeek: choose a whole number from 1 to 14.',
  kindInvalid: 'kind: choose weekly_review or meeting_brief.',
  pushEndpointInvalid: 'endpoint: send the https address of the push subscription.',
  pushKeyInvalid: (field: string) => `${field}: send the key of the push subscription in URL-safe base64.`,
  pushNotFound: 'No push subscription with this endpoint.',
  unsubscribeConfirmTitle: 'Turn this nudge off?',
  unsubscribeConfirmBody,
  unsubscribeButton,
  /** What a nudge's unsubscribe link says, by kind (its email, its page, the page after, where it is turned on again). */
  unsubscribeOf,
  settingsLink,
  pushHostNotAllowed: 'endpoint: this is not the address of a push service this server sends to. Turn notifications on from the browser (Settings), which gives its push service’s address.',
  pushEndpointTaken: 'This browser’s notifications are turned on for another account. Turn them off there first (Settings, Nudges), then here again.',
  tooManyPushSubscriptions: (max: number) => `You have push notifications on in ${max} browsers, the most an account may have: turn them off in one you no longer use first.`,
  reasonPushRefused: 'the push service refused it',
  reasonProgramOver: 'The program ended, or you are no longer in its group, or program nudges are off.',
  reasonPushUnreachable: 'unreachable',
  reasonNoPushSubscription: 'No browser takes push notifications: turn them on in Settings on each device.',

  // Reasons a run was skipped, waits or failed
  reasonQuietHours: (until: string) => `Quiet hours: waiting until ${until}.`,
  reasonWeeklyCap: (max: number) => `Weekly cap reached: ${max} nudges in the last 7 days.`,
  reasonTurnedOff: 'This nudge is turned off.',
  reasonDebriefGone: 'The debrief’s chat was deleted before the nudge was sent.',
  reasonNoCalendar: 'No calendar: connect Microsoft Calendar for meeting briefs.',
  reasonNoMeeting: 'No meeting with other attendees in the next 24 hours.',
  reasonRetrying: (attempt: number, error: string) => `Delivery failed (attempt ${attempt}), retrying: ${error}`,
  reasonFailed: (error: string) => `Delivery failed: ${error}`,
  /** The call channel: the chat was written (and mailed or pushed), the call was not placed. */
  reasonCallFailed: (why: string) => `The call could not be placed: ${why}`,
  reasonCallNotAnswered: (status: string) =>
    `The call was placed but not answered (${({ busy: 'the line was busy', 'no-answer': 'nobody answered', failed: 'the call failed', canceled: 'the call was canceled' } as Record<string, string>)[status] ?? status}).`,

  // The settings section and the history page
  settingsTitle: 'Nudges',
  settingsDescription:
    'Your coach can start the conversation: a weekly review of your goals, commitments and meetings, and a short brief before a meeting. Every nudge is a chat in the app.',
  weeklyReview: 'Weekly review',
  weeklyReviewDescription: 'One focus for the week, the goals that are behind, the meetings worth preparing, your progress, and one question to reply to.',
  day: 'Day',
  time: 'Time',
  meetingBrief: 'Meeting brief',
  meetingBriefDescription: 'Who will be there, what you know about them, and one question to think about.',
  minutesBefore: 'Minutes before the meeting',
  channelsTitle: 'Also send by',
  channelEmail: 'Email (from your connected mailbox to yourself)',
  channelPush: 'Push notification',
  channelCall: 'Phone call',
  quietHoursTitle: 'Quiet hours',
  quietStart: 'From',
  quietEnd: 'Until',
  maxPerWeek: 'At most per week',
  save: 'Save nudge settings',
  saved: 'Nudge settings saved',
  nextRun: (when: string) => `Next planned: ${when}`,
  noNextRun: 'Nothing planned: the weekly review is off.',
  timeZoneNote: (zone: string) => `Times are in your time zone (${zone}).`,
  runNow: 'Run now',
  runStarted: 'The nudge is on its way: it appears in your chats.',
  historyLink: 'Nudge history',
  navLabel: nudgesNavLabel,
  /** A visitor's guest space, before they click Run now. */
  guestInAppOnly: 'In your guest space, Run now writes your weekly review as a chat here in the app. Email, push notifications, phone calls and a weekly plan need an account.',
  historyTitle: 'Nudge history',
  historySubtitle: 'Every nudge the coach sent or planned, newest first.',
  historyEmpty: 'No nudges yet. Run one now, or wait for the next planned one.',
  openChat: 'Open chat',
  historyWhen: 'When',
  historyKind: 'Nudge',
  historyStatus: 'Status',
  historyChannels: 'Channels',
  channelsNotYet: 'Every nudge is also a chat in the app. Email comes from your connected Microsoft mailbox to yourself; push notifications come to the browsers where you turned them on; a phone call comes to your verified number, and the coach talks the nudge through with you.',
  pushUnsupported: 'This browser cannot take push notifications.',
  pushDenied: 'Notifications are blocked for this site: allow them in the browser, then save again.',
  pushFailedTitle: 'Push notifications not turned on',
  kindLabel,
  statusLabel: { queued: 'Queued', sent: 'Sent', skipped: 'Skipped', failed: 'Failed' } as Record<string, string>,
  days: { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' } as Record<string, string>,

  // What the weekly review says: the focus first, at most 8 lines, one question at the end
  // (nudges/nudgeContent.ts writes it from the facts, or the model does and is held to that shape).
  weeklyReviewTitle: (date: string) => `Weekly review: ${date}`,
  /** The review's first line, also the push notification's text. */
  reviewFocusLine: (focus: string) => `Your focus this week: ${focus}`,
  focusCommitment: (text: string) => `close the loop on “${text}”, which is overdue.`,
  focusGoal: (title: string, status: string) => `move “${title}” forward: it is ${status}.`,
  focusMeeting: (subject: string) => `prepare “${subject}”.`,
  focusDefault: 'choose the one result that would make this week a success.',
  reviewGoalBehind: (title: string, status: string, percent: number, expected: number) => `- “${title}” is ${status}: ${percent}% done, ${expected}% expected by now.`,
  reviewCommitmentLine: (text: string, due: string, overdue: boolean) => `- “${text}” is ${overdue ? 'overdue since' : 'due'} ${due}.`,
  reviewMeetingLine: (subject: string, when: string, people: string) => `- Prepare “${subject}”, ${when}${people ? ` with ${people}` : ''}.`,
  reviewProgressCheckIns: (checkIns: number, goals: number) =>
    `Progress: ${checkIns === 1 ? '1 check-in' : `${checkIns} check-ins`} this week on ${goals === 1 ? '1 goal' : `${goals} goals`}`,
  reviewProgressOnTrack: (titles: string[]) => `${titles.length === 1 ? `“${titles[0]}” is` : `${titles.slice(0, -1).map((t) => `“${t}”`).join(', ')} and “${titles.at(-1)}” are`} on track`,
  reviewProgressNone: 'Progress: nothing logged this week yet. One check-in is enough to see where you stand.',
  reviewNoGoals: 'No active goals yet: a goal gives the week a direction when you are ready.',
  questionCommitment: (text: string) => `What would it take to close “${text}” this week?`,
  questionGoal: (title: string) => `What is one step that would move “${title}” forward this week?`,
  questionMeeting: (subject: string) => `What do you want to come out of “${subject}”?`,
  questionDefault: 'What one result would make this week a success for you?',

  reasonMailboxReconnect: 'Sent in the app only: the mailbox needs reconnecting (Microsoft Email, on the Integrations page).',
  emailOpenChat: 'Open the chat',
  emailUnsubscribe,
  emailFooter: 'You get this because nudges by email are on in your AI Coach settings.',
  unsubscribedTitle: 'Nudge turned off',
  unsubscribedBody,
  unsubscribeInvalidTitle: 'This link does not work',
  unsubscribeInvalidBody: 'The unsubscribe link is incomplete or was changed. Turn nudges off in Settings, Notifications.',
  briefTitle: (subject: string) => `Meeting brief: ${subject}`,
  // An automatic debrief's nudge: the debrief itself is in the app, in the meeting's chat.
  debriefTitle: (subject: string) => `Meeting debrief: ${subject}`,
  debriefBody: 'Your coach has debriefed the meeting from its Teams transcript: how much you spoke, the questions you asked, what went well and a moment to try differently. Only you can see it.',
  briefIntro: (subject: string, when: string) => `Your meeting "${subject}" is ${when}.`,
  briefPeopleHeading: '**Who will be there**',
  briefPerson: (name: string, known: string[]) => `- ${name}${known.length ? `: ${known.join('; ')}` : ''}`,
  briefAgendaHeading: '**Your agenda**',
  briefNoAgenda: 'No prep yet.',
  briefQuestion: (subject: string) => `**One question to think about:** what would make "${subject}" worth everyone's time, and what do you need to hear from them?`,
  briefPrepare: (link: string) => `[Prepare or rehearse it](${link})`,
} as const;

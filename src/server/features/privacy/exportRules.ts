// What 'Export my data' writes for each table that holds user rows (SPEC: account, chats,
// messages, profile, settings, knowledge base, writing style). Every entity that
// findUserOwnedEntities finds must have a rule here: a test fails for a table without one, so
// a new table is a decision (export it, or say why not), never an omission.

export type ExportRule =
  | {
      export: true;
      /** The key in the JSON file and the heading in the Markdown file. */
      section: string;
      title: string;
      /** Columns left out of this table's export, besides the neverExported ones. */
      omit?: readonly string[];
    }
  | { export: false; reason: string };

export const exportRules: Record<string, ExportRule> = {
  User: { export: true, section: 'account', title: 'Account', omit: ['passwordHash', 'usernameKey', 'isDemo', 'isGuest', 'scimUserNameKey'] },
  // The organisation's groups the person is in (from the identity provider's provisioning).
  ScimGroupMember: { export: true, section: 'organisationGroups', title: 'Groups in your organisation' },
  UserSettings: { export: true, section: 'settings', title: 'Profile and settings' },
  KnowledgeBase: { export: true, section: 'knowledgeBase', title: 'Knowledge base' },
  Chat: { export: true, section: 'chats', title: 'Chats' },
  Message: { export: true, section: 'messages', title: 'Messages' },
  AuthSession: { export: false, reason: 'sign-in sessions are credentials; Settings lists them without their secret' },
  // Which keys exist, by name and prefix; never the key's hash.
  ApiKey: { export: true, section: 'apiKeys', title: 'API keys', omit: ['keyHash'] },
  Goal: { export: true, section: 'goals', title: 'Goals', omit: ['coachAskedAt', 'coachAskedChat'] },
  KeyResult: { export: true, section: 'keyResults', title: 'Key results' },
  CheckIn: { export: true, section: 'checkIns', title: 'Check-ins' },
  GoalReminder: { export: true, section: 'goalReminders', title: 'Check-in reminders' },
  // What the coach remembers; which chat a commitment was asked about in is bookkeeping.
  Memory: { export: true, section: 'memories', title: 'Memories', omit: ['askedChat', 'sourceMessageId'] },
  MemorySetting: { export: true, section: 'memorySettings', title: 'Memory settings' },
  // The phone calls the coach took with the user (when, which direction, which chat); not the PIN state.
  PhoneCall: { export: true, section: 'phoneCalls', title: 'Phone calls', omit: ['pinUser', 'pinAttempts', 'relayStartedAt'] },
  WritingStyleProfile: { export: true, section: 'writingStyle', title: 'Writing style' },
  // The account's security activity: what happened, when, from which address and browser.
  SecurityEvent: { export: true, section: 'securityEvents', title: 'Security activity' },
  // Meetings prepared with the coach: the invite as the coach saw it, and what was done with the agenda.
  MeetingPrep: { export: true, section: 'meetingPreps', title: 'Meeting preparations' },
  // Conversations the user rehearsed: the set-up they gave (the other person, situation, goal) and the report.
  Rehearsal: { export: true, section: 'rehearsals', title: 'Rehearsals' },
  // Debriefs of real meetings: the numbers and the coach's quotes of the user's own words (the transcript is never stored).
  Debrief: { export: true, section: 'debriefs', title: 'Meeting debriefs' },
  DebriefSetting: { export: true, section: 'debriefSettings', title: 'Meeting debrief settings' },
  // A week of coaching as the organisation's analytics count it: sessions by kind, and the frameworks
  // and themes the coach recognised (bit sets of the labels in shared/schemas/analytics.ts).
  CoachingActivity: { export: true, section: 'coachingActivity', title: 'Coaching activity by week (what your organisation’s analytics count)', omit: ['organisationId'] },
  // Whether the organisation's program nudges reach the person (the programs themselves are the organisation's).
  ProgramSetting: { export: true, section: 'programSettings', title: 'Program nudge settings' },
  CalendarSubscription: { export: false, reason: 'a change-notification subscription is plumbing between this app and Microsoft, not what the user gave or made' },
  PhoneVerification: { export: false, reason: 'a pending SMS code lives 10 minutes and is a credential; the verified phone is in the settings' },
  // Nudges: the settings, and each nudge planned or sent; the queue's lease is bookkeeping.
  NudgeSetting: { export: true, section: 'nudgeSettings', title: 'Nudge settings' },
  NudgeRun: { export: true, section: 'nudgeRuns', title: 'Nudges', omit: ['lockedUntil', 'attempts'] },
  // Which browsers take push notifications (their push service endpoint); not their encryption keys.
  PushSubscription: { export: true, section: 'pushSubscriptions', title: 'Push subscriptions', omit: ['p256dh', 'auth'] },
  // Which Microsoft services are connected, to which account, since when; never the sealed tokens.
  MicrosoftConnection: {
    export: true,
    section: 'microsoftConnections',
    title: 'Microsoft connections',
    omit: ['keyId', 'accessTokenSealed', 'refreshTokenSealed'],
  },
};

// Secrets never leave the server, whatever a table's rule says: a table whose name says it
// holds sessions, tokens or credentials cannot be exported, and no column whose name says it
// holds a password, hash, token, secret or session is written for any table.
export const neverExportedEntity = /session|token|credential|secret/i;
export const neverExportedColumn = /password|hash|token|secret|session|cookie|credential/i;

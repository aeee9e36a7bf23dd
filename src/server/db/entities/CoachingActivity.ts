import { defineEntity, p } from '@mikro-orm/core';
import { User } from './User.js';

// A member's coaching in one week (Monday, UTC), kept as the coach turns happen
// (features/coach/coachingActivity.ts) for the organisation's analytics, which read only this
// table, the goals' frameworks and dates, and the members' departments: never a conversation.
// Counts of sessions by kind (a session is a chat, a call or a rehearsal, counted once a week),
// the frameworks and themes the coach recognised in the member's words (bit sets of the fixed
// labels in shared/schemas/analytics.ts; none for a turn that touches a sensitive topic), and
// the chats counted this week. No guest space or demo account has rows.
export const CoachingActivitySchema = defineEntity({
  name: 'CoachingActivity',
  tableName: 'coaching_activity',
  uniques: [{ name: 'coaching_activity_user_week_unique', properties: ['user', 'week'] }],
  indexes: [{ name: 'coaching_activity_organisation_week_idx', properties: ['organisationId', 'week'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    organisationId: p.integer(),
    week: p.string().columnType('date'),
    chatSessions: p.integer().default(0),
    voiceSessions: p.integer().default(0),
    phoneSessions: p.integer().default(0),
    rehearsalSessions: p.integer().default(0),
    debriefSessions: p.integer().default(0),
    frameworks: p.integer().default(0),
    themes: p.integer().default(0),
    sessions: p.array<number>((value) => Number(value), (value) => String(value)).columnType('int[]'),
  },
});
export class CoachingActivity extends CoachingActivitySchema.class {}
CoachingActivitySchema.setClass(CoachingActivity);

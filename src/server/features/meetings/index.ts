// The meetings feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { type CalendarCache, createCalendarCache, meetingView, requireCalendar } from './calendar.js';
export { loadMeetingsWithOthers, type MeetingWithOthers } from './meetingsFacts.js';
export { agendaItemsOf } from './agenda.js';
export { knownTimeZone, wallClock, zonedTime } from './meetingTimes.js';
export { inviteOf, ownEvent } from './prepMeeting.js';
export { isSampleMeetingId, sampleMeeting, sampleTimeZone, sampleWeek, seesSampleMeetings } from './sampleMeetings.js';
export { dropCalendarState } from './subscriptions.js';

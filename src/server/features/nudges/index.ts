// The nudges feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { nudgeCallStatus } from './nudgeCall.js';
export { chooseFocus, renderWeeklyReview, type ReviewMeeting, routineMeeting, weeklyReviewFacts } from './nudgeContent.js';
export { planWeeklyReview, queueDebriefNudge } from './nudgePlans.js';
export { loadNudgeSettings } from './nudgeSettings.js';
export { setWeeklyReview } from './nudges.js';

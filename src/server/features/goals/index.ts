// The goals feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { askAboutStaleGoal, recordCheckInsFromMessage } from './chatCheckIns.js';
export { goalCheckInCall } from './goalCheckInCall.js';
export { dueAt } from './goalStatus.js';
export { loadActiveGoals } from './goalsFacts.js';
export { goalViews } from './goalViews.js';

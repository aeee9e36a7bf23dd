// The coach feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { assembleEmailWriterContext } from './coachContext.js';
export { chatTurn, loadChatRehearsal, loadTurnHistory, type PreparedTurn, previousReply, runCoachTurn, spokenHistory, spokenTurn, type TurnOutcome } from './coachTurn.js';
export { coachUserOf } from './coachUser.js';
export { turnActivity } from './coachingActivity.js';
export { regional, streamModel } from './modelStream.js';
export { countryOfPhone, defaultSafetyLine, isCrisis, loadUserCountry, type SafetyLine, screenMessage } from './safety/index.js';

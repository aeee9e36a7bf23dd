// The rehearsals feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { offlineJudgement } from './judge.js';
export { reportText } from './reportText.js';
export { setUpOf } from './setUp.js';
export { startRehearsal } from './rehearsals.js';

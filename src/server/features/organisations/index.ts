// The organisations feature's public surface: what other features may use. A feature reaches
// another only through its index.ts (npm run depcheck, rule features-through-index).
export { isOrgAdmin } from './roles.js';
export { hasFreeSeat, withSeatCheck } from './organisation.js';
export { dueProgramNudges, programNudgeContent, turnProgramNudgesOff } from './programs.js';

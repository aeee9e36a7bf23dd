// The auth feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { resolveUser, sessionUserAllowed } from './currentUser.js';
export { finishMicrosoftSignIn, isSignInState, startMicrosoftSignIn } from './microsoftSignIn.js';
export { hashPassword, verifyPassword } from './password.js';
export type { Session } from './session.js';

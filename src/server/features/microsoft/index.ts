// The microsoft feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { accessTokenFor, findConnection, type GraphDeps, ReconnectNeededError, saveConnection } from './connections.js';
export { asPublicError } from './graphErrors.js';
export type { Mailbox } from './mailbox.js';
export { type Calendar, type Microsoft365, openMicrosoft365 } from './microsoft365.js';

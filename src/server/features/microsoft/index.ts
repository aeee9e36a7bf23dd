// The microsoft feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { accessTokenFor, findConnection, type GraphDeps, ReconnectNeededError, saveConnection } from './connections.js';
export { asPublicError } from './graphErrors.js';
export { openMailbox } from './mailbox.js';

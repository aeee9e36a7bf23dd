// The privacy feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { deleteUserRows } from './deleteAccount.js';
export { newChatIsTemporary } from './temporaryChats.js';
export { userOwnedEntities } from './userOwnedEntities.js';

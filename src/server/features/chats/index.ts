// The chats feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export type { ChatBus } from './chatBus.js';
export { findOwnedChat } from './ownedChat.js';
export { sendMessage } from './sendMessage.js';

// The memories feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { loadShareableCommitments, loadShareableMemories } from './memoryFacts.js';
export { memoryEnabled } from './memoryStore.js';
export { askAboutDueCommitment, closeAnsweredCommitment, rememberExplicitly } from './rememberFromChat.js';

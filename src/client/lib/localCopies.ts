import { storageKeys, writingStyleStorageKey } from '../../shared/constants';
import { forgetDrafts } from './composerDrafts';

// The browser's copies of one user's data (the writing style mirror, the knowledge base). They
// belong to the session that wrote them: whenever the session changes (login, logout, another
// account, account deletion) they are removed, so the next person on this browser never sees them.
const userLocalCopies = [writingStyleStorageKey, storageKeys.userKnowledgeBase] as const;

export function forgetUserLocalCopies() {
  // Unsent text typed into the chat's input (kept in memory only).
  forgetDrafts();
  for (const key of userLocalCopies) {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // Storage blocked: nothing was kept either.
    }
    // Hooks still mounted (Mantine's useLocalStorage, default null) drop their copy as well.
    window.dispatchEvent(new CustomEvent('mantine-local-storage', { detail: { key, value: null } }));
  }
}

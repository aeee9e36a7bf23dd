import { useLocalStorage } from '@mantine/hooks';
import type { StoredKnowledgeBase } from '../../../shared/schemas/knowledgeBase';
import { storageKeys } from '../../../shared/constants';

// The browser's copy of the knowledge base under user_knowledge_base (the product spec's entities). The
// server's copy is the truth (other devices, the phone coach and email generation read it);
// this one is written on every save and marked with its owner, so that another account signed
// in on the same browser never starts from it; it is also removed whenever the session changes
// (forgetUserLocalCopies in lib/localCopies.ts).
export type LocalKnowledgeBase = StoredKnowledgeBase & { userId: number };

export function useLocalKnowledgeBase(userId: number) {
  const [local, setLocal, removeLocal] = useLocalStorage<LocalKnowledgeBase | null>({
    key: storageKeys.userKnowledgeBase,
    defaultValue: null,
    getInitialValueInEffect: false,
  });
  return {
    local: local && local.userId === userId ? local : null,
    keep: (kb: StoredKnowledgeBase) => setLocal({ ...kb, userId }),
    removeLocal,
  };
}

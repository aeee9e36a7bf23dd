import { useMutation, useQueryClient } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';
import { useSession } from '../auth/useSession';

// The onboarding's 'Save chat history' is the account's storeChatHistory (the server acts on it:
// with it off, new conversations are not kept), saved through the same procedure as Settings'
// Privacy tab. The other privacy settings are kept as they are.
export function useSaveChatHistoryChoice() {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const update = useMutation(trpc.profile.updatePrivacy.mutationOptions());

  async function saveChatHistoryChoice(storeChatHistory: boolean): Promise<void> {
    if (!user) return;
    const current = await queryClient.fetchQuery({ ...trpc.profile.get.queryOptions(), staleTime: 0 });
    if (current.privacy.storeChatHistory === storeChatHistory) return;
    const saved = await update.mutateAsync({ ...current.privacy, storeChatHistory });
    queryClient.setQueryData(trpc.profile.get.queryKey(), saved);
  }

  return saveChatHistoryChoice;
}

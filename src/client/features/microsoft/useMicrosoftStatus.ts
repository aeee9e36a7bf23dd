import { useQuery, useQueryClient } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';

/** The signed-in user's Microsoft connections (GET connection-status). */
export function useMicrosoftStatus() {
  return useQuery(trpc.microsoft.connectionStatus.queryOptions());
}

/** After a connect or disconnect: the status and everything read from the mailbox. */
export function useRefreshMicrosoft() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.microsoft.pathKey() });
}

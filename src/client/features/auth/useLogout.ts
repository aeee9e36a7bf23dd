import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { authShellTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { afterSessionChange, trpc } from '../../lib/trpc';

export type UseLogoutOptions = {
  /**
   * What a failure does (the product spec's error catalogue): 'There was an error logging out.' is always logged;
   * 'toast' also shows it (the sidebar does, on purpose: docs/spec-differences.md, item 13).
   */
  onFailure?: 'log' | 'toast';
};

// Logout: on success toast 'Logged out', leave for the landing page, then reset the session
// queries and reopen the WebSocket.
export function useLogout({ onFailure = 'log' }: UseLogoutOptions = {}) {
  const navigate = useNavigate();
  const mutation = useMutation(
    trpc.auth.logout.mutationOptions({
      onSuccess: async () => {
        notify.success(authShellTexts.loggedOutTitle);
        // Leave the app screens first, so their queries are not refetched (and 401) in between.
        await navigate({ to: '/' });
        await afterSessionChange();
      },
      onError: (error) => {
        console.error(authShellTexts.logoutFailed, error);
        if (onFailure === 'toast') notify.error(authShellTexts.logoutFailedTitle, authShellTexts.logoutFailed);
      },
    }),
  );
  return {
    logout: () => mutation.mutate(),
    isPending: mutation.isPending,
  };
}

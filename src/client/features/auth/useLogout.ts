import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { authTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { afterSessionChange, trpc } from '../../lib/trpc';

export type UseLogoutOptions = {
  /**
   * What a failure does (SPEC section 8): the sidebar only logs it ('log', the default); other
   * callers may show the toast 'There was an error logging out.' ('toast').
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
        notify.success(authTexts.loggedOutTitle);
        // Leave the app screens first, so their queries are not refetched (and 401) in between.
        await navigate({ to: '/' });
        await afterSessionChange();
      },
      onError: (error) => {
        if (onFailure === 'toast') notify.error(authTexts.logoutFailedTitle, authTexts.logoutFailed);
        else console.error('Logout failed', error);
      },
    }),
  );
  return {
    logout: () => mutation.mutate(),
    isPending: mutation.isPending,
  };
}

import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { microsoftSignInShellTexts } from '../../../shared/texts';

/**
 * A user who signs in with Microsoft is signed out when Microsoft refuses their refresh
 * (invalid_grant: the account was disabled or deleted in its tenant): every session has ended on
 * the server. The first answer that says so takes the browser to /login with the reason, a full
 * load so nothing of the account stays in memory.
 */
export function MicrosoftSignOutWatcher() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const signedOut = (error: unknown) => error instanceof Error && error.message === microsoftSignInShellTexts.signedOut;
    const leave = () => window.location.assign('/login?microsoft_error=signedOut');
    const offQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && signedOut(event.action.error)) leave();
    });
    const offMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && signedOut(event.action.error)) leave();
    });
    return () => {
      offQueries();
      offMutations();
    };
  }, [queryClient]);
  return null;
}

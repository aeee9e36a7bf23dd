import { useQuery } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';

// The current user: the signed-in one, or the demo user while demo mode is on (the product spec's states and transitions).
export function useSession() {
  const query = useQuery(trpc.auth.session.queryOptions());
  return {
    user: query.data?.user ?? null,
    signedIn: query.data?.signedIn ?? false,
    demoMode: query.data?.demoMode ?? false,
    /** A demo visitor or their guest space: integrations wait for an account. */
    guest: query.data?.guest ?? false,
    /** 'Sign in with Microsoft' is configured. */
    microsoftSignIn: query.data?.microsoftSignIn ?? false,
    /** Username and password sign-in and registration (PASSWORD_LOGIN); on until the server says otherwise. */
    passwordLogin: query.data?.passwordLogin ?? true,
    /** An admin of the organisation: the console at /admin is theirs. */
    orgAdmin: query.data?.orgAdmin ?? false,
    isLoading: query.isPending,
    error: query.error,
  };
}

export function initialsOf(fullName: string | undefined | null): string {
  const parts = (fullName ?? '').trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return '?';
  const first = parts[0]![0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1]![0] ?? '') : '';
  return (first + last).toUpperCase();
}

import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '../features/auth/LoginPage';
import { optionalOneOf } from '../lib/searchParams';

// Why a 'Sign in with Microsoft' came back here (the server's redirect names it).
const microsoftErrors = ['state', 'declined', 'failed', 'tenant', 'linkedElsewhere', 'notConfigured', 'signedOut', 'deprovisioned', 'noSeat'] as const;

export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): { microsoft_error?: (typeof microsoftErrors)[number] } => ({
    microsoft_error: optionalOneOf(microsoftErrors, search.microsoft_error),
  }),
  component: LoginRoute,
});

function LoginRoute() {
  const { microsoft_error } = Route.useSearch();
  return <LoginPage microsoftError={microsoft_error} />;
}

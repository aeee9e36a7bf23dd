import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { SettingsPage } from '../../features/settings/SettingsPage';
import { type SettingsTab, settingsTabs } from '../../features/settings/settingsTabs';
import { optionalOneOf } from '../../lib/searchParams';

const microsoftErrors = ['state', 'declined', 'failed', 'tenant', 'linkedElsewhere', 'notConfigured', 'signedOut'] as const;
type Search = { tab?: SettingsTab; microsoft_linked?: 1; microsoft_error?: (typeof microsoftErrors)[number] };

export const Route = createFileRoute('/_app/settings')({
  // microsoft_linked / microsoft_error: where a Microsoft link from the Profile tab came back.
  validateSearch: (search: Record<string, unknown>): Search => ({
    tab: optionalOneOf(settingsTabs, search.tab),
    microsoft_linked: search.microsoft_linked === 1 ? 1 : undefined,
    microsoft_error: optionalOneOf(microsoftErrors, search.microsoft_error),
  }),
  loader: async ({ context }) => {
    const { trpc } = await import('../../lib/trpc');
    // Signed out with demo mode off, the shell shows the sign-in panel instead of this page.
    const session = await context.queryClient.ensureQueryData(trpc.auth.session.queryOptions());
    if (session.user) await context.queryClient.ensureQueryData(trpc.profile.get.queryOptions());
  },
  component: SettingsRoute,
});

function SettingsRoute() {
  const { tab, microsoft_linked, microsoft_error } = Route.useSearch();
  const navigate = Route.useNavigate();
  const clearMicrosoft = useCallback(() => void navigate({ search: (prev) => ({ tab: prev.tab }), replace: true }), [navigate]);
  return (
    <SettingsPage
      tab={tab ?? 'profile'}
      onTabChange={(next) => void navigate({ search: { tab: next === 'profile' ? undefined : next }, replace: true })}
      microsoft={{ linked: microsoft_linked === 1, error: microsoft_error, onShown: clearMicrosoft }}
    />
  );
}

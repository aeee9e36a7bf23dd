import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '../../features/settings/SettingsPage';
import { type SettingsTab, settingsTabs } from '../../features/settings/settingsTabs';
import { optionalOneOf } from '../../lib/searchParams';

export const Route = createFileRoute('/_app/settings')({
  validateSearch: (search: Record<string, unknown>): { tab?: SettingsTab } => ({ tab: optionalOneOf(settingsTabs, search.tab) }),
  loader: async ({ context }) => {
    const { trpc } = await import('../../lib/trpc');
    // Signed out with demo mode off, the shell shows the sign-in panel instead of this page.
    const session = await context.queryClient.ensureQueryData(trpc.auth.session.queryOptions());
    if (session.user) await context.queryClient.ensureQueryData(trpc.profile.get.queryOptions());
  },
  component: SettingsRoute,
});

function SettingsRoute() {
  const { tab } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <SettingsPage
      tab={tab ?? 'profile'}
      onTabChange={(next) => void navigate({ search: { tab: next === 'profile' ? undefined : next }, replace: true })}
    />
  );
}

import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { SettingsPage } from '../../features/settings/SettingsPage';
import { settingsTabs } from '../../features/settings/settingsTabs';

export const Route = createFileRoute('/_app/settings')({
  validateSearch: z.object({ tab: z.enum(settingsTabs).optional().catch(undefined) }),
  loader: async ({ context }) => {
    // Signed out with demo mode off, the shell shows the sign-in panel instead of this page.
    const session = await context.queryClient.ensureQueryData(context.trpc.auth.session.queryOptions());
    if (session.user) await context.queryClient.ensureQueryData(context.trpc.profile.get.queryOptions());
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

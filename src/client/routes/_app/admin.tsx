import { createFileRoute } from '@tanstack/react-router';
import { AdminPage } from '../../features/organisation/AdminPage';

// /admin: the organisation's console (admins only; the server answers 403 to anyone else). Routes
// load, components read.
export const Route = createFileRoute('/_app/admin')({
  loader: async ({ context: { queryClient } }) => {
    const { trpc } = await import('../../lib/trpc');
    const session = await queryClient.ensureQueryData(trpc.auth.session.queryOptions());
    if (!session.orgAdmin) return;
    // The analytics are fetched beside, not waited for: the members and seats come first.
    void queryClient.prefetchQuery(trpc.admin.analytics.queryOptions({}));
    void queryClient.prefetchQuery(trpc.admin.programs.queryOptions());
    await Promise.all([
      queryClient.ensureQueryData(trpc.admin.organisation.queryOptions()),
      queryClient.ensureQueryData(trpc.admin.members.queryOptions()),
      queryClient.ensureQueryData(trpc.admin.scimTokens.queryOptions()),
    ]).catch(() => undefined);
  },
  component: AdminPage,
});

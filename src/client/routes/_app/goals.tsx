import { createFileRoute } from '@tanstack/react-router';
import { goalTexts } from '../../../shared/texts';
import { PageFrame } from '../../components/shell/PageFrame';
import { GoalsPage } from '../../features/goals/GoalsPage';
import { GoalsSkeleton } from '../../features/goals/GoalsSkeleton';

// /goals. Routes load, components read (architecture rule 16): a list that cannot be read is
// not an error page; the page shows the error with a retry from the same query.
export const Route = createFileRoute('/_app/goals')({
  loader: async ({ context: { queryClient } }) => {
    const [{ trpc }, { goalsQueryOptions }] = await Promise.all([import('../../lib/trpc'), import('../../features/goals/goalsCache')]);
    // Signed out with demo mode off, the shell shows the sign-in panel instead of this page.
    const session = await queryClient.ensureQueryData(trpc.auth.session.queryOptions());
    if (session.user) await queryClient.ensureQueryData(goalsQueryOptions()).catch(() => undefined);
  },
  pendingComponent: () => (
    <PageFrame title={goalTexts.pageTitle} subtitle={goalTexts.pageSubtitle} size="lg">
      <GoalsSkeleton />
    </PageFrame>
  ),
  component: GoalsRoute,
});

function GoalsRoute() {
  return <GoalsPage />;
}

import { createFileRoute } from '@tanstack/react-router';
import { useSession } from '../../features/auth/useSession';
import { useSessionEpoch } from '../../lib/trpc';
import { KnowledgeBasePage } from '../../features/knowledgeBase/KnowledgeBasePage';

export const Route = createFileRoute('/_app/knowledge-base')({
  loader: async ({ context }) => {
    const { trpc } = await import('../../lib/trpc');
    // Signed out with demo mode off, the shell shows the sign-in panel instead of this page.
    const session = await context.queryClient.ensureQueryData(trpc.auth.session.queryOptions());
    if (session.user) await context.queryClient.ensureQueryData(trpc.knowledgeBase.get.queryOptions());
  },
  component: KnowledgeBaseRoute,
});

function KnowledgeBaseRoute() {
  const { user } = useSession();
  // Drawn afresh when someone else signs in, not when a visitor's first save makes their space.
  const epoch = useSessionEpoch();
  if (!user) return null;
  return <KnowledgeBasePage key={epoch} user={user} />;
}

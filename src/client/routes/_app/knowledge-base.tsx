import { createFileRoute } from '@tanstack/react-router';
import { useSession } from '../../features/auth/useSession';
import { KnowledgeBasePage } from '../../features/knowledgeBase/KnowledgeBasePage';

export const Route = createFileRoute('/_app/knowledge-base')({
  loader: async ({ context }) => {
    // Signed out with demo mode off, the shell shows the sign-in panel instead of this page.
    const session = await context.queryClient.ensureQueryData(context.trpc.auth.session.queryOptions());
    if (session.user) await context.queryClient.ensureQueryData(context.trpc.knowledgeBase.get.queryOptions());
  },
  component: KnowledgeBaseRoute,
});

function KnowledgeBaseRoute() {
  const { user } = useSession();
  if (!user) return null;
  return <KnowledgeBasePage key={user.id} user={user} />;
}

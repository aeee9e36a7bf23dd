import { createFileRoute } from '@tanstack/react-router';
import { NudgeHistoryPage } from '../../features/nudges/NudgeHistoryPage';

// /nudges: the nudge history. Routes load, components read.
export const Route = createFileRoute('/_app/nudges')({
  loader: async ({ context: { queryClient } }) => {
    const { trpc } = await import('../../lib/trpc');
    const session = await queryClient.ensureQueryData(trpc.auth.session.queryOptions());
    if (session.user) await queryClient.ensureQueryData(trpc.nudges.runs.queryOptions()).catch(() => undefined);
  },
  component: NudgeHistoryPage,
});

import { Skeleton } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { memoryTexts } from '../../../shared/texts';
import { PageFrame } from '../../components/shell/PageFrame';
import { MemoryPage } from '../../features/memory/MemoryPage';

// /memory. Routes load, components read (architecture rule 16).
export const Route = createFileRoute('/_app/memory')({
  loader: async ({ context: { queryClient } }) => {
    const { trpc } = await import('../../lib/trpc');
    const session = await queryClient.ensureQueryData(trpc.auth.session.queryOptions());
    if (session.user) {
      await Promise.all([
        queryClient.ensureQueryData(trpc.memories.list.queryOptions()).catch(() => undefined),
        queryClient.ensureQueryData(trpc.memories.settings.queryOptions()).catch(() => undefined),
      ]);
    }
  },
  pendingComponent: () => (
    <PageFrame title={memoryTexts.pageTitle} subtitle={memoryTexts.pageSubtitle}>
      <Skeleton h={160} radius="md" aria-label="Loading" />
    </PageFrame>
  ),
  component: MemoryPage,
});

import { Group, Paper, Skeleton, Stack } from '@mantine/core';
import { goalTexts } from '../../../shared/texts';

// Kept apart from GoalsPage: the route's pending view stays in the route's own chunk, and the
// chart library stays in the page's lazily loaded one.

/** The page's shape while the goals load (also the route's pending view). */
export function GoalsSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" aria-label={goalTexts.loading}>
      {[0, 1].map((i) => (
        <Paper key={i} withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Skeleton height={22} width="60%" />
            <Group gap="xs">
              <Skeleton height={18} width={60} radius="xl" />
              <Skeleton height={18} width={80} radius="xl" />
            </Group>
            <Skeleton height={12} radius="xl" mt="sm" />
            <Skeleton height={14} width="40%" mt="sm" />
            <Skeleton height={8} radius="xl" />
            <Skeleton height={120} mt="sm" />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

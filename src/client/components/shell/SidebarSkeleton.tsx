import { Skeleton, Stack } from '@mantine/core';

/** The sidebar's outline while it is not drawn yet: the New Chat button, recent chats, the menu. */
export function SidebarSkeleton() {
  return (
    <Stack p="md" gap="sm" aria-hidden>
      <Skeleton height={36} radius="sm" />
      <Skeleton height={12} width="40%" mt="xs" />
      {[80, 65, 72].map((width) => (
        <Skeleton key={width} height={20} width={`${width}%`} />
      ))}
      <Skeleton height={12} width="25%" mt="md" />
      {[60, 70, 55, 75, 50, 80].map((width) => (
        <Skeleton key={width} height={24} width={`${width}%`} />
      ))}
    </Stack>
  );
}

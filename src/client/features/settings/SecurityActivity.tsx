import { Alert, Box, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconShieldCheck, IconShieldExclamation } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { securityTexts } from '../../../shared/texts';
import { ago } from '../../lib/relativeTime';
import { trpc } from '../../lib/trpc';
import { deviceName } from './deviceName';
import { SettingsSection } from './SettingsSection';

// Settings › Recent security activity: sign-ins, failed attempts, keys, exports and
// connections of this account, newest first, with an older page on demand.
export function SecurityActivity() {
  const events = useInfiniteQuery(
    trpc.security.events.infiniteQueryOptions({ limit: 20 }, { getNextPageParam: (page) => page.nextCursor ?? undefined, retry: false }),
  );

  // A guest (or a visitor without a session of their own) has no account activity to show.
  const status = (events.error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
  if (status === 401 || status === 403) return null;
  const list = events.data?.pages.flatMap((page) => page.events) ?? [];

  return (
    <Box mt="lg">
      <SettingsSection heading={securityTexts.heading} description={securityTexts.description}>
        {events.isPending && <Loader size="sm" aria-label={securityTexts.heading} />}
        {events.isError && <Alert color="red">{securityTexts.loadFailed}</Alert>}
        {events.isSuccess && list.length === 0 && (
          <Text size="sm" c="dimmed">
            {securityTexts.empty}
          </Text>
        )}
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={securityTexts.heading}>
          {list.map((event) => {
            const label = securityTexts.kinds[event.kind];
            const warning = event.kind === 'sign_in_failed';
            const device = event.userAgent ? deviceName(event.userAgent) : null;
            return (
              <Group key={event.id} component="li" gap="sm" wrap="nowrap" aria-label={label}>
                {warning ? <IconShieldExclamation size={20} color="var(--mantine-color-orange-6)" aria-hidden /> : <IconShieldCheck size={20} aria-hidden />}
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500}>
                    {label}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    <time dateTime={event.createdAt} title={new Date(event.createdAt).toLocaleString()}>
                      {ago(event.createdAt)}
                    </time>
                    {` · ${event.address ?? securityTexts.unknownAddress}`}
                    {device ? ` · ${device}` : ''}
                  </Text>
                </div>
              </Group>
            );
          })}
        </Stack>
        {events.hasNextPage && (
          <Group justify="center">
            <Button variant="default" size="xs" loading={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()}>
              {securityTexts.loadMore}
            </Button>
          </Group>
        )}
      </SettingsSection>
    </Box>
  );
}

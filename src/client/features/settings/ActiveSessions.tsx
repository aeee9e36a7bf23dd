import { Alert, Badge, Box, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconDeviceDesktop } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sessionTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { ago } from '../../lib/relativeTime';
import { trpc } from '../../lib/trpc';
import { deviceName } from './deviceName';
import { SettingsSection } from './SettingsSection';

// Settings: the browsers and devices signed in to this account, each with a sign-out,
// and one button for all but this one.
export function ActiveSessions() {
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.auth.sessions.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.auth.sessions.queryKey() });
  const endOne = useMutation(
    trpc.auth.endSession.mutationOptions({
      onSuccess: () => notify.success(sessionTexts.signedOutOne),
      onError: (error) => notify.error(errorMessage(error, sessionTexts.notFound)),
      onSettled: refresh,
    }),
  );
  const endOthers = useMutation(
    trpc.auth.endOtherSessions.mutationOptions({
      onSuccess: ({ ended }) => notify.success(sessionTexts.signedOutOthers(ended)),
      onSettled: refresh,
    }),
  );

  // A demo visitor without a session of their own has nothing to manage here.
  if (sessions.data && sessions.data.sessions.length === 0) return null;
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((s) => !s.current);

  return (
    <Box mt="lg">
    <SettingsSection heading={sessionTexts.heading} description={sessionTexts.description}>
      {sessions.isPending && <Loader size="sm" aria-label={sessionTexts.heading} />}
      {sessions.isError && <Alert color="red">{sessionTexts.loadFailed}</Alert>}
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={sessionTexts.heading}>
        {list.map((session) => {
          const name = deviceName(session.userAgent) ?? sessionTexts.unknownDevice;
          return (
            <Group key={session.id} component="li" justify="space-between" wrap="nowrap" gap="sm" aria-label={name}>
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <IconDeviceDesktop size={20} aria-hidden />
                <div style={{ minWidth: 0 }}>
                  <Group gap={6}>
                    <Text size="sm" fw={500} truncate>
                      {name}
                    </Text>
                    {session.current && (
                      <Badge size="sm" variant="light">
                        {sessionTexts.thisDevice}
                      </Badge>
                    )}
                  </Group>
                  <Text size="xs" c="dimmed">
                    {sessionTexts.lastSeen(ago(session.lastSeenAt))}
                    {session.address ? ` · ${session.address}` : ''}
                  </Text>
                </div>
              </Group>
              {!session.current && (
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`${sessionTexts.signOut}: ${name}`}
                  loading={endOne.isPending && endOne.variables?.id === session.id}
                  onClick={() => endOne.mutate({ id: session.id })}
                >
                  {sessionTexts.signOut}
                </Button>
              )}
            </Group>
          );
        })}
      </Stack>
      {others.length > 0 && (
        <Group justify="flex-end">
          <Button color="red" variant="light" loading={endOthers.isPending} onClick={() => endOthers.mutate()}>
            {sessionTexts.signOutOthers}
          </Button>
        </Group>
      )}
    </SettingsSection>
    </Box>
  );
}

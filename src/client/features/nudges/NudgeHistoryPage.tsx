import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { nudgesTexts } from '../../../shared/texts';
import { PageFrame } from '../../components/shell/PageFrame';
import { trpc } from '../../lib/trpc';
import { useSession } from '../auth/useSession';
import { GuestNudgesNote } from './GuestNudgesNote';
import { useRunNow } from './useRunNow';
import { SampleBadge } from '../../components/SampleBadge';

const statusColor: Record<string, string> = { queued: 'blue', sent: 'green', skipped: 'gray', failed: 'red' };

// /nudges: every run, newest first, with why one was skipped or failed.
export function NudgeHistoryPage() {
  const navigate = useNavigate();
  const { guest } = useSession();
  // Refreshed while a run is queued and due: run now answers at once and the coach writes soon after.
  const runs = useQuery({ ...trpc.nudges.runs.queryOptions(), refetchInterval: (q) => (q.state.data?.runs.some((r) => r.status === 'queued' && Date.parse(r.dueAt) <= Date.now()) ? 1_000 : false) });
  const { runNow, pending } = useRunNow({ toastStarted: false });
  const list = runs.data?.runs ?? [];
  return (
    <PageFrame
      title={nudgesTexts.historyTitle}
      subtitle={nudgesTexts.historySubtitle}
      action={
        <Button onClick={() => void runNow()} loading={pending}>
          {nudgesTexts.runNow}
        </Button>
      }
    >
      {/* A visitor reads what Run now does for them before the click. */}
      {guest && <GuestNudgesNote />}
      <Paper withBorder radius="md" p="md">
        {runs.isSuccess && !list.length ? (
          <Text c="dimmed">{nudgesTexts.historyEmpty}</Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label={nudgesTexts.historyTitle}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{nudgesTexts.historyWhen}</Table.Th>
                  <Table.Th>{nudgesTexts.historyKind}</Table.Th>
                  <Table.Th>{nudgesTexts.historyStatus}</Table.Th>
                  <Table.Th>{nudgesTexts.historyChannels}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((r) => (
                  <Table.Tr key={r.id} data-testid="nudge-run">
                    <Table.Td>{new Date(r.status === 'queued' ? r.dueAt : r.createdAt).toLocaleString()}</Table.Td>
                    <Table.Td>
                      <Group gap="xs">
                        {nudgesTexts.kindLabel[r.kind] ?? r.kind}
                        {r.sample && (
                          <SampleBadge size="xs" />
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={2}>
                        <Badge color={statusColor[r.status] ?? 'gray'} variant="light">
                          {nudgesTexts.statusLabel[r.status] ?? r.status}
                        </Badge>
                        {r.reason && (
                          <Text size="xs" c="dimmed">
                            {r.reason}
                          </Text>
                        )}
                      </Stack>
                    </Table.Td>
                    <Table.Td>{r.channels.join(', ')}</Table.Td>
                    <Table.Td>
                      {r.chatId && (
                        <Group justify="flex-end">
                          <Anchor component="button" type="button" size="sm" onClick={() => void navigate({ to: '/app', search: { chat: r.chatId ?? undefined } })}>
                            {nudgesTexts.openChat}
                          </Anchor>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </PageFrame>
  );
}

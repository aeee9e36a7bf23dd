import { Alert, Button, Card, Group, Skeleton, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { organisationTexts } from '../../../shared/texts';
import { ago } from '../../lib/relativeTime';
import { trpc } from '../../lib/trpc';

const texts = organisationTexts.console;

type Changes = Record<string, string | number | boolean | null> | null;

/** "seats 500 (was none) · name Contoso": the changed fields, their earlier values beside them. */
function describeChanges(changes: Changes): string {
  if (!changes) return '';
  return Object.entries(changes)
    .filter(([key]) => !key.endsWith('Before'))
    .map(([key, value]) => {
      const label = texts.auditChangeLabels[key] ?? key;
      const before = `${key}Before` in changes ? ` (${texts.auditValue(changes[`${key}Before`] ?? null)} →)` : '';
      return `${label}${before} ${texts.auditValue(value)}`;
    })
    .join(' · ');
}

// The console's audit log: what admins and the provisioning did, newest first, older on demand.
export function AuditLog() {
  const events = useInfiniteQuery(trpc.admin.audit.infiniteQueryOptions({ limit: 50 }, { getNextPageParam: (page) => page.nextCursor ?? undefined, retry: false }));
  const list = events.data?.pages.flatMap((page) => page.events) ?? [];
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="audit-heading">
      <Title id="audit-heading" order={2} size="h5">
        {texts.auditHeading}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {texts.auditDescription}
      </Text>
      {events.isPending && <Skeleton height={80} />}
      {events.isError && <Alert color="red">{texts.auditLoadFailed}</Alert>}
      {events.isSuccess && list.length === 0 && (
        <Text size="sm" c="dimmed">
          {texts.auditEmpty}
        </Text>
      )}
      {list.length > 0 && (
        <Table.ScrollContainer minWidth={300}>
          <Table aria-label={texts.auditTable} striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{texts.auditColumns.when}</Table.Th>
                <Table.Th>{texts.auditColumns.who}</Table.Th>
                <Table.Th>{texts.auditColumns.what}</Table.Th>
                <Table.Th>{texts.auditColumns.target}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((event) => {
                const details = describeChanges(event.changes);
                return (
                  <Table.Tr key={event.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <time dateTime={event.createdAt} title={new Date(event.createdAt).toLocaleString()}>
                        {ago(event.createdAt)}
                      </time>
                    </Table.Td>
                    <Table.Td>{event.actorKind === 'provisioning' ? texts.auditProvisioning(event.actorName) : event.actorName}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{texts.auditActions[event.action]}</Text>
                      {details && (
                        <Text size="xs" c="dimmed">
                          {details}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{event.target ?? ''}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {events.hasNextPage && (
        <Group justify="center" mt="xs">
          <Button variant="default" size="xs" loading={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()}>
            {texts.auditMore}
          </Button>
        </Group>
      )}
    </Card>
  );
}

import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { rehearsalTexts } from '../../../shared/texts';
import { PageFrame } from '../../components/shell/PageFrame';
import { trpc } from '../../lib/trpc';
import { StartRehearsalDialog } from './StartRehearsalDialog';
import { SampleBadge } from '../../components/SampleBadge';

/** /rehearsals: the user's rehearsals, newest first, and the start form. */
export function RehearsalsPage() {
  const t = rehearsalTexts;
  const list = useQuery(trpc.rehearsals.list.queryOptions());
  const [starting, setStarting] = useState(false);
  const navigate = useNavigate();
  const rehearsals = list.data?.rehearsals ?? [];
  return (
    <PageFrame title={t.pageTitle} subtitle={t.pageSubtitle}>
      <Stack gap="md" p="md">
        <Group>
          <Button onClick={() => setStarting(true)}>{t.newButton}</Button>
        </Group>
        {starting && <StartRehearsalDialog opened onClose={() => setStarting(false)} />}
        {list.isPending ? (
          <Skeleton h={120} radius="md" aria-label="Loading" />
        ) : rehearsals.length === 0 ? (
          <Alert variant="light">{t.empty}</Alert>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {rehearsals.map((r) => (
              <Card key={r.id} withBorder radius="md" padding="md" component="li" aria-label={t.reportTitle(r.counterpart.name)}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <div style={{ minWidth: 0, flex: '1 1 240px' }}>
                    <Text fw={600}>{t.reportTitle(r.counterpart.name)}</Text>
                    <Text size="sm" c="dimmed" lineClamp={2}>
                      {r.situation}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {new Date(r.createdAt).toLocaleString()}
                    </Text>
                  </div>
                  <Group gap="xs">
                    {r.sample && (
                      <SampleBadge />
                    )}
                    <Badge variant="light">{t.difficulties[r.difficulty]}</Badge>
                    {r.report?.judged && <Badge color={r.report.judged.goalMet === 'yes' ? 'teal' : r.report.judged.goalMet === 'partly' ? 'yellow' : 'red'}>{t.goalMet[r.report.judged.goalMet]}</Badge>}
                    <Button size="xs" variant="light" onClick={() => void navigate({ to: '/app', search: { chat: r.chatId } })}>
                      {t.openChat}
                    </Button>
                    <Button size="xs" onClick={() => void navigate({ to: '/rehearsals/$id', params: { id: String(r.id) } })}>
                      {t.viewReport}
                    </Button>
                  </Group>
                </Group>
              </Card>
            ))}
          </Stack>
        )}
      </Stack>
    </PageFrame>
  );
}

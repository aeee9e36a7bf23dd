import { Badge, Button, Card, Checkbox, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { microsoftTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { ReadError } from './MailStates';
import { useEmailPages, useFolders } from './mailQueries';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
};

// The inbox with selection and moving (the product spec's screens, states and transitions and error catalogue).
export function EmailList(props: { destination: string | null; onDestinationChange: (id: string | null) => void }) {
  const pages = useEmailPages(true);
  const folders = useFolders(true);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const queryClient = useQueryClient();
  const move = useMutation(
    trpc.microsoft.moveEmails.mutationOptions({
      onSuccess: (answer) => {
        if (answer.moved === 0) notify.error(microsoftTexts.moveErrorTitle, microsoftTexts.moveError);
        else notify.success(microsoftTexts.movedTitle, answer.message);
      },
      onError: (error) => notify.error(microsoftTexts.moveErrorTitle, errorMessage(error, microsoftTexts.moveError)),
      onSettled: () => {
        setSelected(new Set());
        void queryClient.invalidateQueries({ queryKey: trpc.microsoft.emails.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.microsoft.folders.queryKey() });
      },
    }),
  );

  if (pages.isPending) return <Loader aria-label="Loading emails" />;
  if (pages.isError) {
    return <ReadError title={microsoftTexts.fetchEmailsErrorTitle} fallback={microsoftTexts.fetchEmailsError} hint={microsoftTexts.fetchEmailsHint} error={pages.error} onRetry={() => void pages.refetch()} />;
  }
  const emails = pages.data.pages.flatMap((page) => page.emails);
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const submitMove = () => {
    if (!props.destination || selected.size === 0) return notify.error(microsoftTexts.cannotMoveTitle, microsoftTexts.cannotMove);
    move.mutate({ messageIds: [...selected], destinationFolderId: props.destination });
  };

  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="sm">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={microsoftTexts.destinationLabel}
            placeholder={microsoftTexts.destinationPlaceholder}
            data={(folders.data?.folders ?? []).map((f) => ({ value: f.id, label: f.displayName }))}
            value={props.destination}
            onChange={props.onDestinationChange}
            searchable
            clearable
            style={{ flex: '1 1 14rem' }}
          />
          <Button onClick={submitMove} loading={move.isPending}>
            {microsoftTexts.moveSelected}
          </Button>
          <Text size="sm" c="dimmed" aria-live="polite">
            {microsoftTexts.selectedCount(selected.size)}
          </Text>
          {selected.size > 0 && (
            <Button variant="subtle" size="compact-sm" onClick={() => setSelected(new Set())}>
              {microsoftTexts.clearSelection}
            </Button>
          )}
        </Group>
      </Card>
      {emails.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {microsoftTexts.noEmails}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={microsoftTexts.emailsTab}>
          {emails.map((email) => (
            <li key={email.id} aria-label={email.subject || microsoftTexts.noSubject}>
              <Card withBorder radius="md" padding="sm" bg={selected.has(email.id) ? 'var(--mantine-color-indigo-light)' : undefined}>
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Checkbox mt={4} checked={selected.has(email.id)} onChange={() => toggle(email.id)} aria-label={microsoftTexts.selectEmail(email.subject)} />
                  <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                    <Group justify="space-between" wrap="wrap" gap={4}>
                      <Text fw={email.isRead ? 500 : 700} size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {email.subject || microsoftTexts.noSubject}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {formatDate(email.receivedDateTime)}
                      </Text>
                    </Group>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {email.from.emailAddress.name} &lt;{email.from.emailAddress.address}&gt;
                    </Text>
                    {(email.importance === 'high' || email.hasAttachments) && (
                      <Group gap={4}>
                        {email.importance === 'high' && (
                          <Badge color="red" variant="light" size="sm">
                            {microsoftTexts.important}
                          </Badge>
                        )}
                        {email.hasAttachments && (
                          <Badge color="gray" variant="light" size="sm" leftSection={<IconPaperclip size={12} aria-hidden />}>
                            {microsoftTexts.attachment}
                          </Badge>
                        )}
                      </Group>
                    )}
                    <Text size="sm" lineClamp={2}>
                      {email.bodyPreview}
                    </Text>
                  </Stack>
                </Group>
              </Card>
            </li>
          ))}
        </Stack>
      )}
      {pages.hasNextPage && (
        <Group justify="center">
          <Button variant="light" onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
            {microsoftTexts.loadMore}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

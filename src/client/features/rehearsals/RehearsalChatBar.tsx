import { Button, Group, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { rehearsalTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

const t = rehearsalTexts;

export function useRehearsalOfChat(chatId: number, isRehearsal: boolean) {
  return useQuery({ ...trpc.rehearsals.ofChat.queryOptions({ chatId }), enabled: isRehearsal, staleTime: 60_000 });
}

/** Above a rehearsal's conversation: who is being played, and the report. */
export function RehearsalChatBar(props: { rehearsalId: number; name: string; difficulty: keyof typeof rehearsalTexts.difficulties }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const feedback = useMutation(
    trpc.rehearsals.feedback.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.rehearsals.pathKey() });
        await navigate({ to: '/rehearsals/$id', params: { id: String(props.rehearsalId) } });
      },
      onError: (error) => notify.error(t.reportFailed, errorMessage(error, t.reportFailed)),
    }),
  );
  return (
    <Group gap="xs" px="md" py={6} justify="space-between" wrap="wrap" role="region" aria-label={t.rehearsalBadge}>
      <Text size="sm" c="dimmed">
        {t.reportTitle(props.name)} · {t.difficulties[props.difficulty]}
      </Text>
      <Group gap="xs">
        <Button size="xs" variant="subtle" onClick={() => void navigate({ to: '/rehearsals/$id', params: { id: String(props.rehearsalId) } })}>
          {t.viewReport}
        </Button>
        <Button size="xs" onClick={() => feedback.mutate({ id: props.rehearsalId })} loading={feedback.isPending}>
          {t.getReport}
        </Button>
      </Group>
    </Group>
  );
}

/** Under each of the user's turns in a rehearsal: take that moment again in a new rehearsal. */
export function TryAgainButton(props: { rehearsalId: number; messageId: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const retry = useMutation(
    trpc.rehearsals.retry.mutationOptions({
      onSuccess: async ({ chatId }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.rehearsals.pathKey() });
        await navigate({ to: '/app', search: { chat: chatId } });
      },
      onError: (error) => notify.error(t.tryAgainFailed, errorMessage(error, t.tryAgainFailed)),
    }),
  );
  return (
    <Group justify="flex-end" px="md">
      <Button size="compact-xs" variant="subtle" loading={retry.isPending} onClick={() => retry.mutate({ id: props.rehearsalId, fromMessageId: props.messageId })}>
        {t.tryAgain}
      </Button>
    </Group>
  );
}

import { Button, Group, Text } from '@mantine/core';
import { IconPhoneCall } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { rehearsalTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { LazyTooltip } from '../../components/LazyFloating';
import { VoiceCallButton } from '../voice/VoiceCallButton';

const t = rehearsalTexts;

/** Above a rehearsal's conversation: who is being played, and the report. */
export function RehearsalChatBar(props: { rehearsalId: number; chatId: number; name: string; difficulty: keyof typeof rehearsalTexts.difficulties }) {
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
        {/* A browser voice call in this chat: the other person answers, with their own voice. */}
        <VoiceCallButton chatId={props.chatId} />
        <CallMeButton rehearsalId={props.rehearsalId} name={props.name} />
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

/**
 * 'Call me': the rehearsal held by phone, the other person calling the verified number. Shown when
 * phone calls are configured; without a verified number it says what to do instead of calling.
 */
function CallMeButton(props: { rehearsalId: number; name: string }) {
  const status = useQuery({ ...trpc.twilio.status.queryOptions(), staleTime: 60_000 });
  const call = useMutation(
    trpc.rehearsals.callMe.mutationOptions({
      onSuccess: ({ message }) => notify.success(t.callMe, message),
      onError: (error) => notify.error(t.callFailed, errorMessage(error, t.callFailed)),
    }),
  );
  if (!status.data?.configured) return null;
  const blocked = !status.data.verifiedPhone;
  return (
    <LazyTooltip label={blocked ? t.callNeedsVerifiedPhone : t.callMeHint(props.name)} openDelay={400} multiline w={260}>
      <Button
        size="xs"
        variant="light"
        leftSection={<IconPhoneCall size={14} aria-hidden />}
        data-disabled={blocked || undefined}
        aria-disabled={blocked}
        loading={call.isPending}
        onClick={(event) => {
          if (blocked) {
            event.preventDefault();
            notify.error(t.callFailed, t.callNeedsVerifiedPhone);
            return;
          }
          call.mutate({ id: props.rehearsalId });
        }}
      >
        {t.callMe}
      </Button>
    </LazyTooltip>
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

import { Button, Group, Text } from '@mantine/core';
import { IconPhoneCall } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { rehearsalTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { LazyTooltip } from '../../components/LazyFloating';
import { AvatarCircle } from '../../components/AvatarCircle';
import { initialsOf } from '../../lib/initials';
import { VoiceCallButton } from '../voice/VoiceCallButton';
import classes from './rehearsal.module.css';

const t = rehearsalTexts;

/**
 * Above a rehearsal's conversation: who is being played, and one report action: 'Get the report'
 * once there is a turn it has not judged, 'View the report' once it has; none before the first turn.
 */
export function RehearsalChatBar(props: {
  rehearsalId: number;
  chatId: number;
  name: string;
  difficulty: keyof typeof rehearsalTexts.difficulties;
  /** The user has spoken in the rehearsal. */
  hasTurn: boolean;
  /** A report exists and no turn came after it. */
  reportCurrent: boolean;
}) {
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
        {props.reportCurrent ? (
          <Button size="xs" onClick={() => void navigate({ to: '/rehearsals/$id', params: { id: String(props.rehearsalId) } })}>
            {t.viewReport}
          </Button>
        ) : props.hasTurn ? (
          <Button size="xs" onClick={() => feedback.mutate({ id: props.rehearsalId })} loading={feedback.isPending}>
            {t.getReport}
          </Button>
        ) : null}
      </Group>
    </Group>
  );
}

/** What opens a rehearsal instead of the coach's greeting: who is listening, the situation, how hard it will be. */
export function RehearsalScene(props: { name: string; role: string | null; relationship: string | null; situation: string; difficulty: keyof typeof rehearsalTexts.difficulties }) {
  return (
    <section className={classes.scene} aria-label={t.sceneLabel}>
      <Group gap="sm" wrap="nowrap" align="center">
        <AvatarCircle size={40} tone="person">
          {initialsOf(props.name)}
        </AvatarCircle>
        <Text fw={600}>{t.sceneListening(props.name, props.role)}</Text>
      </Group>
      {props.relationship && (
        <Text size="sm" c="dimmed" mt={6}>
          {t.sceneRelationship(props.relationship)}
        </Text>
      )}
      <Text size="sm" mt="xs" fw={500}>
        {t.situationLabel}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {props.situation}
      </Text>
      <Text size="sm" mt="xs">
        {t.sceneDifficulty(t.difficulties[props.difficulty])}
      </Text>
      <Text size="xs" c="dimmed" mt="xs">
        {t.sceneHint}
      </Text>
    </section>
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
  // No phone calls here, or none in the member's organisation (the phone page says so).
  if (!status.data?.configured || status.data.turnedOffByOrganisation) return null;
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

/** Under each of the user's turns in a rehearsal (and beside where the report says it went wrong): take that moment again in a new rehearsal. */
export function TryAgainButton(props: { rehearsalId: number; messageId: number; inline?: boolean }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const retry = useMutation(
    trpc.rehearsals.retry.mutationOptions({
      onSuccess: async ({ chatId }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.rehearsals.pathKey() });
        const chats = await queryClient.fetchQuery(trpc.chats.list.queryOptions());
        const title = chats.find((chat) => chat.id === chatId)?.title;
        if (title) notify.success(t.retried(title), t.retriedBody);
        await navigate({ to: '/app', search: { chat: chatId } });
      },
      onError: (error) => notify.error(t.tryAgainFailed, errorMessage(error, t.tryAgainFailed)),
    }),
  );
  if (props.inline) {
    return (
      <Button size="xs" variant="light" loading={retry.isPending} onClick={() => retry.mutate({ id: props.rehearsalId, fromMessageId: props.messageId })}>
        {t.tryAgain}
      </Button>
    );
  }
  return (
    <Group justify="flex-end" px="md">
      <Button size="compact-xs" variant="subtle" loading={retry.isPending} onClick={() => retry.mutate({ id: props.rehearsalId, fromMessageId: props.messageId })}>
        {t.tryAgain}
      </Button>
    </Group>
  );
}

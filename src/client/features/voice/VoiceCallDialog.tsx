import { ActionIcon, Alert, Anchor, Badge, Box, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconMicrophone, IconMicrophoneOff, IconPhoneOff, IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { LazyTooltip } from '../../components/LazyFloating';
import { voiceTexts } from '../../../shared/texts';
import { trpc } from '../../lib/trpc';
import { autoStartMs, formatDuration, useVoiceCall, type CallStatus } from './useVoiceCall';

const statusColor: Record<CallStatus, string> = {
  idle: 'yellow',
  connecting: 'yellow',
  active: 'teal',
  disconnected: 'red',
  ended: 'gray',
};

/**
 * 'Voice Call with AI Coach' of the product spec's screens: opened, it calls after 1 s; closing hangs up.
 * Opened from an open chat (`chatId`), the coach answers with that chat's context and the call's
 * turns are saved into it; otherwise the call starts a chat of its own.
 */
export function VoiceCallDialog(props: { opened: boolean; onClose: () => void; chatId?: number }) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={voiceTexts.dialogTitle} centered size="md">
      {props.opened && <VoiceCall onClose={props.onClose} chatId={props.chatId ?? null} />}
    </Modal>
  );
}

function VoiceCall(props: { onClose: () => void; chatId: number | null }) {
  const coach = useQuery(trpc.chats.coachInfo.queryOptions());
  const needsProvider = coach.data?.kind === 'offline';
  const call = useVoiceCall(props.chatId);
  const { start, hangUp } = call;

  useEffect(() => {
    if (!coach.data || needsProvider) return;
    const timer = window.setTimeout(() => void start(), autoStartMs);
    return () => {
      window.clearTimeout(timer);
      hangUp();
    };
  }, [coach.data, needsProvider, start, hangUp]);

  if (needsProvider) {
    return (
      <Stack>
        <Alert color="yellow">
          {voiceTexts.needsProvider}
        </Alert>
        <Text size="xs" c="dimmed" ta="center">
          {voiceTexts.footer}
        </Text>
      </Stack>
    );
  }

  const message =
    call.status === 'active'
      ? voiceTexts.active
      : call.status === 'disconnected'
        ? voiceTexts.failed
        : call.status === 'ended'
          ? voiceTexts.endedAfter(formatDuration(call.endedAfter ?? 0))
          : voiceTexts.connecting;
  const inCall = call.status === 'active';

  return (
    <Stack align="center" gap="md">
      <Box
        role="img"
        aria-label={`Call status: ${call.status === 'ended' ? voiceTexts.ended : call.status}`}
        w={96}
        h={96}
        style={{
          borderRadius: '50%',
          background: `var(--mantine-color-${statusColor[call.status]}-filled)`,
          display: 'grid',
          placeItems: 'center',
          boxShadow: call.phase === 'recording' && inCall ? '0 0 0 8px var(--mantine-color-teal-light)' : undefined,
          transition: 'box-shadow 150ms',
        }}
      >
        {call.muted ? <IconMicrophoneOff size={40} color="white" aria-hidden /> : <IconMicrophone size={40} color="white" aria-hidden />}
      </Box>
      <Text fw={600} ta="center" aria-live="polite">
        {call.status === 'ended' ? voiceTexts.ended : message}
      </Text>
      {call.status === 'ended' && <Text c="dimmed">{message}</Text>}
      {call.notice && call.status === 'disconnected' && (
        <Alert color="red" w="100%">
          {call.notice}
        </Alert>
      )}
      {inCall && (
        <Group gap="xs">
          <Text ff="monospace" aria-label="Call duration">
            {formatDuration(call.seconds)}
          </Text>
          {call.phase === 'recording' && <Badge color="red">{voiceTexts.recording}</Badge>}
          {call.phase === 'processing' && <Badge color="blue">{voiceTexts.processing}</Badge>}
          {call.phase === 'speaking' && <Badge color="teal">{voiceTexts.speaking}</Badge>}
          {call.muted && <Badge color="gray">{voiceTexts.muted}</Badge>}
        </Group>
      )}
      {(call.youSaid || call.coachSaid) && (
        <Stack gap="xs" w="100%" aria-live="polite">
          {call.youSaid && (
            <Box>
              <Text size="sm" fw={600}>
                {voiceTexts.youSaid}
              </Text>
              <Text size="sm">{call.youSaid}</Text>
            </Box>
          )}
          {call.coachSaid && (
            <Box>
              <Text size="sm" fw={600}>
                {voiceTexts.coach}
              </Text>
              <Text size="sm">{call.coachSaid}</Text>
            </Box>
          )}
        </Stack>
      )}
      {inCall && (
        <Group gap="lg">
          <LazyTooltip label={call.muted ? voiceTexts.unmute : voiceTexts.mute}>
            <ActionIcon size="xl" radius="xl" variant={call.muted ? 'filled' : 'light'} color="gray" aria-label={call.muted ? voiceTexts.unmute : voiceTexts.mute} aria-pressed={call.muted} onClick={call.toggleMute}>
              {call.muted ? <IconMicrophoneOff /> : <IconMicrophone />}
            </ActionIcon>
          </LazyTooltip>
          <LazyTooltip label={voiceTexts.hangUp}>
            <ActionIcon size="xl" radius="xl" color="red" variant="filled" aria-label={voiceTexts.hangUp} onClick={call.hangUp}>
              <IconPhoneOff />
            </ActionIcon>
          </LazyTooltip>
          <LazyTooltip label={call.speakerOn ? voiceTexts.speakerOff : voiceTexts.speakerOn}>
            <ActionIcon size="xl" radius="xl" variant="light" color="gray" aria-label={call.speakerOn ? voiceTexts.speakerOff : voiceTexts.speakerOn} aria-pressed={!call.speakerOn} onClick={call.toggleSpeaker}>
              {call.speakerOn ? <IconVolume /> : <IconVolumeOff />}
            </ActionIcon>
          </LazyTooltip>
        </Group>
      )}
      {(call.status === 'ended' || call.status === 'disconnected') && (
        <Group>
          <Button onClick={() => void call.start()}>{voiceTexts.callAgain}</Button>
          {call.chatId !== null && (
            <Anchor renderRoot={(rootProps) => <Link {...rootProps} to="/app" search={{ chat: call.chatId ?? undefined }} />} onClick={props.onClose}>
              {voiceTexts.openChat}
            </Anchor>
          )}
        </Group>
      )}
      <Text size="xs" c="dimmed" ta="center">
        {voiceTexts.footer}
      </Text>
    </Stack>
  );
}

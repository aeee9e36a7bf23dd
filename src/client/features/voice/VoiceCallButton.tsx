import { ActionIcon } from '@mantine/core';
import { IconMicrophone } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { voiceShellTexts } from '../../../shared/texts';
import { LazyTooltip } from '../../components/LazyFloating';
import { useVoiceAvailable, VoiceUnavailable } from './voiceAvailability';

// The call dialog (recording, voice activity, audio playback) is loaded when a call is first
// started, not with the chat page (/app's first visit).
const VoiceCallDialog = lazy(() => import('./VoiceCallDialog').then((module) => ({ default: module.VoiceCallDialog })));

/** The chat's microphone button: a voice call with the coach, in the open chat when there is one. */
export function VoiceCallButton(props: { disabled?: boolean; chatId?: number }) {
  const [opened, setOpened] = useState(false);
  // Mounted from the first call on, so that closing it plays the modal's exit transition.
  const [started, setStarted] = useState(false);
  const available = useVoiceAvailable();
  const button = (
    <ActionIcon type="button" variant="subtle" color="gray" size="lg" radius="xl" aria-label={voiceShellTexts.startVoiceCall} disabled={props.disabled || !available} onClick={() => {
        setStarted(true);
        setOpened(true);
      }}>
      <IconMicrophone size={18} />
    </ActionIcon>
  );
  return (
    <>
      {available ? (
        <LazyTooltip label={voiceShellTexts.startVoiceCall} openDelay={700}>
          {button}
        </LazyTooltip>
      ) : (
        <VoiceUnavailable>{button}</VoiceUnavailable>
      )}
      {started && (
        <Suspense fallback={null}>
          <VoiceCallDialog opened={opened} onClose={() => setOpened(false)} chatId={props.chatId} />
        </Suspense>
      )}
    </>
  );
}

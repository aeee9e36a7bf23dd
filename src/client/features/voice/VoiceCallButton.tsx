import { ActionIcon, Tooltip } from '@mantine/core';
import { IconMicrophone } from '@tabler/icons-react';
import { useState } from 'react';
import { voiceTexts } from '../../../shared/texts';
import { VoiceCallDialog } from './VoiceCallDialog';

/** The chat's microphone button: a voice call with the coach, in the open chat when there is one. */
export function VoiceCallButton(props: { disabled?: boolean; chatId?: number }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Tooltip label={voiceTexts.startVoiceCall} openDelay={700}>
        <ActionIcon type="button" variant="subtle" color="gray" size="lg" radius="xl" aria-label={voiceTexts.startVoiceCall} disabled={props.disabled} onClick={() => setOpened(true)}>
          <IconMicrophone size={18} />
        </ActionIcon>
      </Tooltip>
      <VoiceCallDialog opened={opened} onClose={() => setOpened(false)} chatId={props.chatId} />
    </>
  );
}

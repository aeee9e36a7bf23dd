import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { writingStyleTexts } from '../../../shared/texts';
import { formatLastUpdated, useAnalyzeWritingStyle, useWritingStyle } from './useWritingStyle';

const texts = writingStyleTexts;

/** The reminder itself, drawn open once WritingStyleReminder.tsx has decided that it shows. */
export function WritingStyleReminderDialog() {
  const { writingStyle } = useWritingStyle();
  const { analyze, running } = useAnalyzeWritingStyle();
  const [opened, setOpened] = useState(true);
  const close = () => setOpened(false);

  const refresh = async () => {
    if (await analyze('updated')) close();
  };

  return (
    <Modal opened={opened} onClose={close} title={texts.reminderTitle} centered>
      <Text size="sm">{texts.reminderBody}</Text>
      <Text size="sm" c="dimmed" mt="xs">
        {texts.lastUpdated}: {formatLastUpdated(writingStyle?.lastUpdated)}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={close}>
          {texts.notNow}
        </Button>
        <Button onClick={() => void refresh()} loading={running}>
          {texts.refreshProfile}
        </Button>
      </Group>
    </Modal>
  );
}

import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { writingStyleLimits } from '../../../shared/constants';
import { writingStyleTexts } from '../../../shared/texts';
import { formatLastUpdated, useAnalyzeWritingStyle, useWritingStyle } from './useWritingStyle';

const texts = writingStyleTexts;

// Decided once per browser session, so that moving between chats does not roll the dice again.
const decidedKey = 'writingStyleReminderDecided';

function rollOnce(): boolean {
  try {
    if (sessionStorage.getItem(decidedKey)) return false;
    sessionStorage.setItem(decidedKey, '1');
  } catch {
    // Storage refused (private mode): roll every time, as the spec's client did.
  }
  return Math.random() < writingStyleLimits.reminderChance;
}

/** 'Writing Style Review' (the product spec's screens): about 30% of the time, when Microsoft mail is connected. */
export function WritingStyleReminder() {
  const { loading, mailConnected, writingStyle } = useWritingStyle();
  const { analyze, running } = useAnalyzeWritingStyle();
  const [opened, setOpened] = useState(false);

  useEffect(() => {
    // Never over another dialog: a person in the middle of one (a confirmation, the onboarding)
    // would find it covered, and their next click taken by the reminder. Then it skips this session.
    if (!loading && mailConnected && rollOnce() && !document.querySelector('[role="dialog"]')) setOpened(true);
  }, [loading, mailConnected]);

  const refresh = async () => {
    if (await analyze('updated')) setOpened(false);
  };

  return (
    <Modal opened={opened} onClose={() => setOpened(false)} title={texts.reminderTitle} centered>
      <Text size="sm">{texts.reminderBody}</Text>
      <Text size="sm" c="dimmed" mt="xs">
        {texts.lastUpdated}: {formatLastUpdated(writingStyle?.lastUpdated)}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => setOpened(false)}>
          {texts.notNow}
        </Button>
        <Button onClick={() => void refresh()} loading={running}>
          {texts.refreshProfile}
        </Button>
      </Group>
    </Modal>
  );
}

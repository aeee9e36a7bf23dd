import { Alert, Button, Group, Text } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { authTexts } from '../../../shared/texts';

const AuthDialog = lazy(() => import('./AuthDialog').then((module) => ({ default: module.AuthDialog })));

export type OutsideWorld = keyof typeof authTexts.accountRequiredFor;

/**
 * What a guest space sees where an integration would be: what it needs, and a way to
 * create the account. Registering keeps the guest's chats, goals and knowledge base.
 */
export function AccountRequired(props: { what: OutsideWorld; compact?: boolean }) {
  const [opened, setOpened] = useState(false);
  return (
    <Alert color="indigo" variant="light" title={authTexts.accountRequiredFor[props.what]} role="note">
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        {!props.compact && (
          <Text size="sm" style={{ flex: '1 1 240px' }}>
            {authTexts.guestSpaceNote}
          </Text>
        )}
        <Button size="sm" leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setOpened(true)}>
          {authTexts.createAccount}
        </Button>
      </Group>
      {opened && (
        <Suspense fallback={null}>
          <AuthDialog opened={opened} onClose={() => setOpened(false)} initialTab="register" />
        </Suspense>
      )}
    </Alert>
  );
}

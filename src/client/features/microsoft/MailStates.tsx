import { Alert, Anchor, Button, Card, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { microsoftTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';

/** Shown instead of the mail screens while Microsoft Email is not connected. */
export function ConnectFirst() {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack align="center" gap="sm">
        <Text fw={600}>{microsoftTexts.notConnected}</Text>
        <Text size="sm" c="dimmed" ta="center">
          {microsoftTexts.connectFirst}
        </Text>
        <Button component={Link} to="/integrations">
          {microsoftTexts.goToIntegrations}
        </Button>
      </Stack>
    </Card>
  );
}

/** A failed read with the spec's title, message and hint (the product spec's error catalogue). */
export function ReadError(props: { title: string; fallback: string; hint: string; error: unknown; onRetry: () => void }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={props.title} role="alert">
      <Stack gap={6}>
        <Text size="sm">{errorMessage(props.error, props.fallback)}</Text>
        <Text size="sm">
          {props.hint}{' '}
          <Anchor component={Link} to="/integrations" size="sm">
            {microsoftTexts.goToIntegrations}
          </Anchor>
        </Text>
        <div>
          <Button size="xs" variant="light" color="red" onClick={props.onRetry}>
            {microsoftTexts.tryAgain}
          </Button>
        </div>
      </Stack>
    </Alert>
  );
}

import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';
import { settingsTexts } from '../../../shared/texts';

// One settings tab: a heading, the fields, and (for forms) a Save button with its loading state.
export function SettingsSection(props: {
  heading: string;
  description: string;
  children: ReactNode;
  onSubmit?: FormEventHandler<HTMLFormElement>;
  saving?: boolean;
  saveLabel?: string;
}) {
  const body = (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="lg">
        <div>
          <Title order={2} size="h4">
            {props.heading}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {props.description}
          </Text>
        </div>
        {props.children}
        {props.onSubmit && (
          <Group justify="flex-end">
            <Button type="submit" loading={props.saving} aria-label={props.saveLabel}>
              {settingsTexts.save}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
  return props.onSubmit ? (
    <form onSubmit={props.onSubmit} noValidate>
      {body}
    </form>
  ) : (
    body
  );
}

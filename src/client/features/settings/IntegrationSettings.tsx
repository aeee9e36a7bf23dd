import { Alert, Badge, Button, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBrandGmail } from '@tabler/icons-react';
import { IconBrandLinkedin } from '@tabler/icons-react';
import { IconBrandTeams } from '@tabler/icons-react';
import { IconCalendar } from '@tabler/icons-react';
import { IconCalendarEvent } from '@tabler/icons-react';
import { IconInfoCircle } from '@tabler/icons-react';
import { IconMail } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { MicrosoftServiceKey } from '../../../shared/schemas/microsoft';
import { settingsTexts } from '../../../shared/texts';
import { MicrosoftServiceActions } from '../microsoft/MicrosoftServiceActions';
import { useConnectDialogs } from '../microsoft/useConnectDialogs';
import { SettingsSection } from './SettingsSection';

type IntegrationKey = keyof typeof settingsTexts.integrationNames;

const microsoft: Array<{ key: IntegrationKey; service: MicrosoftServiceKey; icon: ReactNode }> = [
  { key: 'microsoftEmail', service: 'email', icon: <IconMail size={18} aria-hidden /> },
  { key: 'microsoftCalendar', service: 'calendar', icon: <IconCalendarEvent size={18} aria-hidden /> },
  { key: 'microsoftTeams', service: 'teams', icon: <IconBrandTeams size={18} aria-hidden /> },
];
const others: Array<{ key: IntegrationKey; icon: ReactNode }> = [
  { key: 'gmail', icon: <IconBrandGmail size={18} aria-hidden /> },
  { key: 'googleCalendar', icon: <IconCalendar size={18} aria-hidden /> },
  { key: 'linkedin', icon: <IconBrandLinkedin size={18} aria-hidden /> },
];

// The integration flags of the product spec's entities: the Microsoft services as the server knows them, with
// connect (the same dialogs as /integrations) and disconnect (deletes the tokens on the server).
export function IntegrationSettings() {
  const { open, dialogs } = useConnectDialogs();
  return (
    <SettingsSection heading={settingsTexts.integrationsHeading} description={settingsTexts.integrationsDescription}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {settingsTexts.microsoftGroup}
        </Title>
        {microsoft.map((item) => (
          <IntegrationRow key={item.key} item={item} status={<MicrosoftServiceActions service={item.service} onConnect={open} />} />
        ))}
        <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} aria-hidden />} mt="xs">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{settingsTexts.microsoftManage}</Text>
            <Button component={Link} to="/integrations" size="xs" variant="light">
              {settingsTexts.manageIntegrations}
            </Button>
          </Group>
        </Alert>
        {dialogs}
      </Stack>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {settingsTexts.otherGroup}
        </Title>
        {others.map((item) => (
          <IntegrationRow key={item.key} item={item} status={<Badge color="yellow" variant="light">{settingsTexts.comingSoon}</Badge>} />
        ))}
      </Stack>
    </SettingsSection>
  );
}

function IntegrationRow(props: { item: { key: IntegrationKey; icon: ReactNode }; status: ReactNode }) {
  const name = settingsTexts.integrationNames[props.item.key];
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" py={6} role="group" aria-label={name}>
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
        <ThemeIcon variant="light" color="indigo" size="lg" radius="md">
          {props.item.icon}
        </ThemeIcon>
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fw={500}>
            {name}
          </Text>
          <Text size="xs" c="dimmed">
            {settingsTexts.integrationDescriptions[props.item.key]}
          </Text>
        </div>
      </Group>
      <div style={{ flexShrink: 0 }}>{props.status}</div>
    </Group>
  );
}

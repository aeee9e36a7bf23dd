import { Badge, Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconBrandGmail } from '@tabler/icons-react';
import { IconBrandLinkedin } from '@tabler/icons-react';
import { IconBrandTeams } from '@tabler/icons-react';
import { IconCalendar } from '@tabler/icons-react';
import { IconCheck } from '@tabler/icons-react';
import { IconMail } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { onboardingTexts } from '../../../shared/texts';
import { type Connections, type ToolKey, toolKeys } from './onboardingData';
import classes from './onboarding.module.css';

const toolIcons: Record<ToolKey, ReactNode> = {
  gmail: <IconBrandGmail size={20} aria-hidden />,
  outlook: <IconMail size={20} aria-hidden />,
  googleCalendar: <IconCalendar size={20} aria-hidden />,
  teams: <IconBrandTeams size={20} aria-hidden />,
  linkedin: <IconBrandLinkedin size={20} aria-hidden />,
};

// Step 1: marking a tool only remembers it in this browser (the product spec's screens).
export function ConnectToolsStep(props: { connections: Connections; onConnect: (tool: ToolKey) => void }) {
  return (
    <>
      <Text size="sm" c="dimmed" mb="md">
        {onboardingTexts.toolsIntro}
      </Text>
      <div className={classes.toolGrid}>
        {toolKeys.map((tool) => {
          const connected = props.connections[tool];
          return (
            <UnstyledButton
              key={tool}
              className={classes.tool}
              data-connected={connected || undefined}
              aria-pressed={connected}
              onClick={() => props.onConnect(tool)}
            >
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon variant="light" color={connected ? 'teal' : 'indigo'} size="lg" radius="md">
                  {connected ? <IconCheck size={20} aria-hidden /> : toolIcons[tool]}
                </ThemeIcon>
                <div>
                  <Text fw={500} size="sm">
                    {onboardingTexts.tools[tool]}
                  </Text>
                  {connected && (
                    <Badge color="teal" variant="light" size="xs" mt={2}>
                      {onboardingTexts.connected}
                    </Badge>
                  )}
                </div>
              </Group>
            </UnstyledButton>
          );
        })}
      </div>
      <Text size="xs" c="dimmed" mt="md">
        {onboardingTexts.toolsNote}
      </Text>
    </>
  );
}

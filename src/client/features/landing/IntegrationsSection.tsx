import { Box, Container, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title, type MantineColor } from '@mantine/core';
import { IconBrandTeams, IconCalendarStats, IconMail } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { landingTexts } from '../../../shared/texts';
import classes from './landing.module.css';

type IntegrationId = (typeof landingTexts.integrations.items)[number]['id'];

const looks: Record<IntegrationId, { icon: ComponentType<{ size?: number; stroke?: number }>; color: MantineColor }> = {
  calendar: { icon: IconCalendarStats, color: 'blue' },
  email: { icon: IconMail, color: 'teal' },
  teams: { icon: IconBrandTeams, color: 'violet' },
};

export function IntegrationsSection() {
  const t = landingTexts.integrations;
  return (
    <Box component="section" className={classes.band} aria-labelledby="integrations-title">
      <Container size="lg" py={{ base: 56, md: 96 }}>
        <Stack align="center" ta="center" gap="sm" maw={680} mx="auto" mb={{ base: 32, md: 56 }}>
          <Title id="integrations-title" order={2} fz={{ base: 28, md: 38 }} lh={1.2} style={{ textWrap: 'balance' }}>
            {t.title}
          </Title>
          <Text size="lg" c="dimmed">
            {t.subtitle}
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {t.items.map((item) => {
            const { icon: Icon, color } = looks[item.id];
            return (
              <Paper key={item.id} component="article" withBorder radius="lg" p="xl">
                <ThemeIcon size={48} radius="xl" color={color} variant="light" aria-hidden>
                  <Icon size={26} stroke={1.6} />
                </ThemeIcon>
                <Title order={3} fz="h4" mt="lg">
                  {item.title}
                </Title>
                <Text c="dimmed" mt="sm">
                  {item.description}
                </Text>
              </Paper>
            );
          })}
        </SimpleGrid>
      </Container>
    </Box>
  );
}

import { Box, Container, Paper, SimpleGrid, Text, ThemeIcon, Title, type MantineColor } from '@mantine/core';
import { IconBrandTeams, IconCalendarStats, IconMail } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { landingTexts } from '../../../shared/texts';
import classes from './landing.module.css';
import { SectionHeading } from './SectionHeading';

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
        <SectionHeading id="integrations-title" title={t.title} subtitle={t.subtitle} />
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

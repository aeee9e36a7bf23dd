import { Badge, Card, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBrain, IconChartLine, IconTargetArrow } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { landingTexts } from '../../../shared/texts';
import classes from './landing.module.css';

type FeatureId = (typeof landingTexts.features.cards)[number]['id'];

const icons: Record<FeatureId, ComponentType<{ size?: number; stroke?: number }>> = {
  analysis: IconBrain,
  tracking: IconChartLine,
  frameworks: IconTargetArrow,
};

export function FeaturesSection() {
  const t = landingTexts.features;
  return (
    <Container component="section" id="features" className={classes.anchorTarget} size="lg" py={{ base: 56, md: 96 }} aria-labelledby="features-title">
      <Stack align="center" ta="center" gap="sm" maw={680} mx="auto" mb={{ base: 32, md: 56 }}>
        <Title id="features-title" order={2} fz={{ base: 28, md: 38 }} lh={1.2} style={{ textWrap: 'balance' }}>
          {t.title}
        </Title>
        <Text size="lg" c="dimmed">
          {t.subtitle}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        {t.cards.map((card) => {
          const Icon = icons[card.id];
          return (
            <Card key={card.id} component="article" withBorder radius="lg" padding="xl" className={classes.card}>
              <ThemeIcon size={48} radius="md" variant="light" aria-hidden>
                <Icon size={26} stroke={1.6} />
              </ThemeIcon>
              <Title order={3} fz="h4" mt="lg">
                {card.title}
              </Title>
              <Text c="dimmed" mt="sm">
                {card.description}
              </Text>
              {card.id === 'frameworks' && (
                <Group gap={6} mt="md">
                  {t.frameworkBadges.map((name) => (
                    <Badge key={name} variant="outline" radius="sm" tt="none">
                      {name}
                    </Badge>
                  ))}
                </Group>
              )}
            </Card>
          );
        })}
      </SimpleGrid>
    </Container>
  );
}

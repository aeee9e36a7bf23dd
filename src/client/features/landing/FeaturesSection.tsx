import { Anchor, Badge, Card, Container, Group, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBrain, IconChartLine, IconTargetArrow } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import { landingTexts } from '../../../shared/texts';
import classes from './landing.module.css';
import { SectionHeading } from './SectionHeading';

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
      <SectionHeading id="features-title" title={t.title} subtitle={t.subtitle} />
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
              {card.id === 'tracking' && (
                <Anchor component={Link} to="/goals" mt="md" display="inline-block" fw={500}>
                  {t.trackingLink} →
                </Anchor>
              )}
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

import { Badge, Box, Button, Container, Flex, Grid, Group, Paper, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { IconArrowRight, IconMessageChatbot, IconSparkles } from '@tabler/icons-react';
import { landingTexts } from '../../../shared/texts';
import classes from './landing.module.css';

type Props = {
  onStart: () => void;
  onIntent: () => void;
};

export function HeroSection({ onStart, onIntent }: Props) {
  const t = landingTexts.hero;
  return (
    <Box component="section" className={classes.hero} aria-labelledby="hero-title">
      <Container size="lg" py={{ base: 48, md: 96 }}>
        <Grid gap={{ base: 40, md: 64 }} align="center">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="lg" align="flex-start">
              <Badge
                variant="light"
                size="lg"
                radius="sm"
                tt="none"
                leftSection={<IconSparkles size={14} aria-hidden />}
              >
                {t.eyebrow}
              </Badge>
              <Title id="hero-title" order={1} fz={{ base: 34, sm: 44, md: 52 }} lh={1.1} fw={800} style={{ textWrap: 'balance' }}>
                {t.title}
              </Title>
              <Text size="lg" c="dimmed" maw={560}>
                {t.subtitle}
              </Text>
              <Flex gap="sm" mt="sm" direction={{ base: 'column', xs: 'row' }} w={{ base: '100%', xs: 'auto' }}>
                <Button
                  size="lg"
                  onClick={onStart}
                  onPointerEnter={onIntent}
                  onFocus={onIntent}
                  aria-haspopup="dialog"
                  rightSection={<IconArrowRight size={18} aria-hidden />}
                >
                  {t.primaryAction}
                </Button>
                <Button size="lg" variant="default" component="a" href="#features">
                  {t.secondaryAction}
                </Button>
              </Flex>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <ConversationPreview />
          </Grid.Col>
        </Grid>
      </Container>
    </Box>
  );
}

// A sample exchange that shows what a coaching conversation looks like.
function ConversationPreview() {
  const t = landingTexts.hero;
  return (
    <Paper component="figure" m={0} withBorder shadow="xl" radius="lg" p={{ base: 'md', sm: 'xl' }} aria-label={t.previewLabel}>
      <Group gap="sm" mb="lg" wrap="nowrap">
        <ThemeIcon size={40} radius="xl" variant="gradient" gradient={{ from: 'indigo', to: 'violet', deg: 135 }} aria-hidden>
          <IconMessageChatbot size={22} stroke={1.8} />
        </ThemeIcon>
        <div>
          <Text fw={700} size="sm">
            {t.previewCoachName}
          </Text>
          <Text size="xs" c="dimmed">
            {t.previewLabel}
          </Text>
        </div>
      </Group>
      <Stack gap="sm">
        <Box className={classes.bubbleUser} px="md" py="sm">
          <Text size="sm">
            <VisuallyHidden>{`${t.previewUserName}: `}</VisuallyHidden>
            {t.previewUserMessage}
          </Text>
        </Box>
        <Box className={classes.bubbleCoach} px="md" py="sm">
          <Text size="sm">
            <VisuallyHidden>{`${t.previewCoachName}: `}</VisuallyHidden>
            {t.previewCoachMessage}
          </Text>
        </Box>
      </Stack>
      <Group gap={6} mt="lg">
        {landingTexts.features.frameworkBadges.map((name) => (
          <Badge key={name} variant="light" color="gray" radius="sm" tt="none">
            {name}
          </Badge>
        ))}
      </Group>
    </Paper>
  );
}

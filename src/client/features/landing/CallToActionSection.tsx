import { Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { landingTexts } from '../../../shared/texts';
import classes from './landing.module.css';

type Props = {
  onStart: () => void;
  onIntent: () => void;
};

export function CallToActionSection({ onStart, onIntent }: Props) {
  const t = landingTexts.callToAction;
  return (
    <Container component="section" size="lg" py={{ base: 56, md: 96 }} aria-labelledby="cta-title">
      <Paper radius="xl" className={classes.cta} px={{ base: 'lg', sm: 48 }} py={{ base: 40, md: 64 }}>
        <Stack align="center" ta="center" gap="md" maw={640} mx="auto">
          <Title id="cta-title" order={2} c="white" fz={{ base: 28, md: 38 }} lh={1.2} style={{ textWrap: 'balance' }}>
            {t.title}
          </Title>
          <Text size="lg" c="indigo.0">
            {t.subtitle}
          </Text>
          <Button
            size="lg"
            variant="white"
            mt="sm"
            onClick={onStart}
            onPointerEnter={onIntent}
            onFocus={onIntent}
            aria-haspopup="dialog"
            rightSection={<IconArrowRight size={18} aria-hidden />}
          >
            {t.action}
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}

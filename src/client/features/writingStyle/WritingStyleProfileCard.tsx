import { Badge, Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { WritingStyle } from '../../../shared/schemas/writingStyle';
import { writingStyleTexts } from '../../../shared/texts';
import { formatLastUpdated } from './useWritingStyle';

const texts = writingStyleTexts;

function Section(props: { number: number; title: string; children: ReactNode }) {
  const id = `style-section-${props.number}`;
  return (
    <Group component="section" aria-labelledby={id} align="flex-start" wrap="nowrap" gap="sm">
      <ThemeIcon size={28} radius="xl" variant="light" aria-hidden>
        <Text size="sm" fw={700}>
          {props.number}
        </Text>
      </ThemeIcon>
      <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
        <Title order={3} size="h5" id={id}>
          {props.title}
        </Title>
        {props.children}
      </Stack>
    </Group>
  );
}

function Value(props: { value: string | null; fallback: string }) {
  return props.value ? (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
      {props.value}
    </Text>
  ) : (
    <Text size="sm" c="dimmed" fs="italic">
      {props.fallback}
    </Text>
  );
}

/** 'Your Writing Style Profile': the six numbered sections with their fallbacks (the product spec's screens). */
export function WritingStyleProfileCard(props: { style: WritingStyle; onRefresh: () => void; refreshing: boolean }) {
  const { style } = props;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="style-profile-title">
      <Stack gap="lg">
        <div>
          <Title order={2} size="h4" id="style-profile-title">
            {texts.profileTitle}
          </Title>
          <Text size="sm" c="dimmed">
            {texts.lastUpdated}: {formatLastUpdated(style.lastUpdated)} · {texts.emailsAnalyzed(style.emailsAnalyzed)}
          </Text>
        </div>
        <Section number={1} title={texts.sections.tone}>
          <Value value={style.tone} fallback={texts.fallbacks.tone} />
          {style.tone && (
            <Text size="xs" c="dimmed">
              {style.toneSource === 'model' ? texts.toneFromModel : texts.toneFromMarkers}
            </Text>
          )}
        </Section>
        <Section number={2} title={texts.sections.commonPhrases}>
          {style.commonPhrases.length ? (
            <Group gap={6}>
              {style.commonPhrases.map((phrase) => (
                <Badge
                  key={phrase}
                  variant="light"
                  radius="sm"
                  tt="none"
                  size="lg"
                  fw={500}
                  // Long phrases wrap on a phone instead of being cut off.
                  styles={{ root: { height: 'auto', maxWidth: '100%' }, label: { whiteSpace: 'normal', paddingBlock: 2 } }}
                >
                  {phrase}
                </Badge>
              ))}
            </Group>
          ) : (
            <Value value={null} fallback={texts.fallbacks.commonPhrases} />
          )}
        </Section>
        <Section number={3} title={texts.sections.greeting}>
          <Value value={style.greeting} fallback={texts.fallbacks.greeting} />
        </Section>
        <Section number={4} title={texts.sections.signOff}>
          <Value value={style.signOff} fallback={texts.fallbacks.signOff} />
        </Section>
        <Section number={5} title={texts.sections.structure}>
          <Value value={style.structure} fallback={texts.fallbacks.structure} />
        </Section>
        <Section number={6} title={texts.sections.length}>
          <Value value={style.length} fallback={texts.fallbacks.length} />
        </Section>
        <Group justify="space-between" gap="sm" pt="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Text size="sm" c="dimmed" style={{ flex: '1 1 240px' }}>
            {texts.footerNote}
          </Text>
          <Button variant="light" leftSection={<IconRefresh size={16} />} onClick={props.onRefresh} loading={props.refreshing}>
            {texts.refresh}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

import { Button, Card, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import { IconMailCog } from '@tabler/icons-react';
import { IconRefresh } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { WritingStyle } from '../../../shared/schemas/writingStyle';
import { writingStyleTexts } from '../../../shared/texts';
import { EmailTemplateGenerator } from './EmailTemplateGenerator';
import { useAnalyzeWritingStyle, useWritingStyle } from './useWritingStyle';

const texts = writingStyleTexts;

function Fact(props: { label: string; value: string | null; fallback: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {props.label}
      </Text>
      <Text size="sm" c={props.value ? undefined : 'dimmed'}>
        {props.value ?? props.fallback}
      </Text>
    </div>
  );
}

function StyleSummary(props: { style: WritingStyle }) {
  const { style } = props;
  const { analyze, running } = useAnalyzeWritingStyle();
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        {texts.summaryTitle}
      </Title>
      <Fact label={texts.tone} value={style.tone} fallback={texts.fallbacks.tone} />
      <Fact label={texts.greeting} value={style.greeting} fallback={texts.fallbacks.greeting} />
      <Fact
        label={texts.phrases}
        value={style.commonPhrases.length ? style.commonPhrases.slice(0, 3).map((phrase) => `“${phrase}”`).join(', ') : null}
        fallback={texts.fallbacks.commonPhrases}
      />
      <Fact label={texts.signOff} value={style.signOff} fallback={texts.fallbacks.signOff} />
      <Fact label={texts.structure} value={style.structure} fallback={texts.fallbacks.structure} />
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          leftSection={<IconEdit size={14} />}
          renderRoot={(rootProps) => <Link {...rootProps} to="/writing-style-analysis" />}
        >
          {texts.edit}
        </Button>
        <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} loading={running} onClick={() => void analyze('refreshed')}>
          {texts.refreshStyle}
        </Button>
      </Group>
    </Stack>
  );
}

/** The chat-embedded panel (the product spec's screens), shown when the conversation asks about style. */
export function WritingStylePanel() {
  const { loading, writingStyle } = useWritingStyle();
  const { analyze, running } = useAnalyzeWritingStyle();

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={texts.panelTitle} maw={640} w="100%" mx="auto" my="sm">
      {loading ? (
        <Group justify="center" p="md">
          <Loader size="sm" aria-label="Loading writing style profile" />
        </Group>
      ) : writingStyle ? (
        <Tabs defaultValue="style" keepMounted={false}>
          <Tabs.List mb="sm">
            <Tabs.Tab value="style">{texts.tabStyle}</Tabs.Tab>
            <Tabs.Tab value="templates">{texts.tabTemplates}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="style">
            <StyleSummary style={writingStyle} />
          </Tabs.Panel>
          <Tabs.Panel value="templates">
            <EmailTemplateGenerator />
          </Tabs.Panel>
        </Tabs>
      ) : (
        <Stack gap="sm" align="flex-start">
          <Title order={3} size="h5">
            {texts.panelTitle}
          </Title>
          <Text size="sm" c="dimmed">
            {texts.panelNoProfile}
          </Text>
          <Button size="sm" leftSection={<IconMailCog size={16} />} loading={running} onClick={() => void analyze('page')}>
            {texts.analyze}
          </Button>
        </Stack>
      )}
    </Card>
  );
}

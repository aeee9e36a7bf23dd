import { Alert, Button, CopyButton, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { IconCopy } from '@tabler/icons-react';
import { IconSparkles } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { writingStyleLimits } from '../../../shared/constants';
import { audienceValues, type Audience } from '../../../shared/schemas/writingStyle';
import { writingStyleTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

const texts = writingStyleTexts;

/** 'Generate Email in Your Style' (the product spec's screens): topic, audience, the email and Copy. */
export function EmailTemplateGenerator() {
  const [topic, setTopic] = useState('');
  const [audience, setAudience] = useState<Audience>('internal');
  const generate = useMutation(trpc.writingStyle.generate.mutationOptions());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!topic.trim()) {
      notify.error(texts.promptRequiredTitle, texts.promptRequiredBody);
      return;
    }
    generate.mutate(
      { topic, audience },
      { onError: () => notify.error(texts.generationFailedTitle, texts.generationFailedBody) },
    );
  };

  const result = generate.data;
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        {texts.generateTitle}
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={texts.topicLabel}
            placeholder={texts.topicPlaceholder}
            value={topic}
            onChange={(event) => setTopic(event.currentTarget.value)}
            // The button is disabled while the topic is empty, and a form with a disabled default
            // button is not submitted by Enter: say what is missing instead of doing nothing.
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !topic.trim()) {
                event.preventDefault();
                notify.error(texts.promptRequiredTitle, texts.promptRequiredBody);
              }
            }}
            maxLength={writingStyleLimits.topicMax}
          />
          <Select
            label={texts.audienceLabel}
            data={audienceValues.map((value) => ({ value, label: texts.audiences[value] }))}
            value={audience}
            onChange={(value) => value && setAudience(value as Audience)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          <Group>
            <Button type="submit" leftSection={<IconSparkles size={16} />} disabled={!topic.trim()} loading={generate.isPending}>
              {texts.generate}
            </Button>
          </Group>
        </Stack>
      </form>
      {result && (
        <Paper withBorder radius="md" p="sm" aria-label={texts.generatedLabel} component="section">
          <Stack gap="xs">
            <Group justify="space-between" gap="xs">
              <Text size="sm" fw={600}>
                {texts.generatedLabel}
              </Text>
              <CopyButton value={result.email} timeout={writingStyleLimits.copyConfirmationMs}>
                {({ copied, copy }) => (
                  <Button
                    size="xs"
                    variant={copied ? 'filled' : 'light'}
                    color={copied ? 'teal' : undefined}
                    leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                    onClick={copy}
                  >
                    {copied ? texts.copied : texts.copy}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Text component="pre" size="sm" style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit', margin: 0 }} data-testid="generated-email">
              {result.email}
            </Text>
            <Alert variant="light" color={result.writer === 'offline' ? 'gray' : 'blue'} p="xs">
              <Text size="xs">{result.writer === 'offline' ? texts.offlineWriterNote : texts.modelWriterNote}</Text>
            </Alert>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

import { Badge, Box, Button, Container, Grid, Group, NumberInput, Paper, Select, Stack, Switch, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTimeout } from '@mantine/hooks';
import { IconAddressBook, IconBriefcase, IconMessageCircle, IconNotes } from '@tabler/icons-react';
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useEffect, useState, type ReactNode } from 'react';
import { PageFrame } from '../../components/shell/PageFrame';
import { emailTones, knowledgeBaseSchema } from '../../../shared/schemas/knowledgeBase';
import { knowledgeBaseTexts as texts } from '../../../shared/texts';
import { errorMessage, fieldErrorsOf } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { KnowledgeBaseSummary } from './KnowledgeBaseSummary';
import { knowledgeBaseTabs, tabOfField, toValues, type KnowledgeBaseTab, type KnowledgeBaseValues } from './knowledgeBaseForm';
import { useLocalKnowledgeBase } from './useLocalKnowledgeBase';

// The product spec's constants and limits: the 'Saved' badge shows for 3 s.
const savedBadgeMs = 3000;

const tabIcons: Record<KnowledgeBaseTab, ReactNode> = {
  personal: <IconAddressBook size={16} aria-hidden />,
  role: <IconBriefcase size={16} aria-hidden />,
  communication: <IconMessageCircle size={16} aria-hidden />,
  notes: <IconNotes size={16} aria-hidden />,
};

// /knowledge-base (the product spec's screens): tabs Personal Info, Role Context, Communication Style, Notes
// and a summary card. Kept on the server and in this browser under user_knowledge_base.
export function KnowledgeBasePage(props: { user: { id: number; fullName: string; jobTitle: string | null; company: string | null } }) {
  const queryClient = useQueryClient();
  const { data: stored } = useSuspenseQuery(trpc.knowledgeBase.get.queryOptions());
  const { local, keep } = useLocalKnowledgeBase(props.user.id);
  const save = useMutation(trpc.knowledgeBase.save.mutationOptions());
  const [tab, setTab] = useState<KnowledgeBaseTab>('personal');
  const [showSaved, setShowSaved] = useState(false);
  const hideSaved = useTimeout(() => setShowSaved(false), savedBadgeMs);

  const form = useForm<KnowledgeBaseValues>({
    // Controlled: the switch's description and the summary follow what is typed.
    mode: 'controlled',
    // The server's copy first; a copy only this browser has (kept before it reached the server) next.
    initialValues: toValues(stored ?? local, props.user),
    validate: zod4Resolver(knowledgeBaseSchema, { errorPriority: 'first' }),
  });

  // The browser's copy follows the server's, which other devices may have changed.
  useEffect(() => {
    if (stored && stored.updatedAt !== local?.updatedAt) keep(stored);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stored]);

  // The first field with an error, in the order the tabs show them.
  const showFirstError = (errors: Record<string, unknown>) => {
    const field = (Object.keys(tabOfField) as Array<keyof typeof tabOfField>).find((name) => errors[name]);
    if (field) setTab(tabOfField[field]);
  };

  const submit = form.onSubmit(
    async (values) => {
      try {
        const saved = await save.mutateAsync({ ...values, emailTone: values.emailTone || undefined } as never);
        queryClient.setQueryData(trpc.knowledgeBase.get.queryKey(), saved);
        keep(saved);
        form.setValues(toValues(saved, props.user));
        form.resetDirty();
        setShowSaved(true);
        hideSaved.clear();
        hideSaved.start();
      } catch (error) {
        const fieldErrors = fieldErrorsOf(error);
        form.setErrors(fieldErrors);
        showFirstError(fieldErrors);
        notify.error(texts.saveFailedTitle, errorMessage(error, texts.saveFailedBody));
      }
    },
    (errors) => showFirstError(errors),
  );

  return (
    <PageFrame title={texts.title} subtitle={texts.subtitle} size="lg">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <form onSubmit={submit} noValidate>
            <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
              <Stack gap="lg">
                <Switch
                  size="md"
                  label={texts.useKnowledgeBase}
                  description={form.values.useKnowledgeBase ? texts.useKnowledgeBaseOn : texts.useKnowledgeBaseOff}
                  key={form.key('useKnowledgeBase')}
                  {...form.getInputProps('useKnowledgeBase', { type: 'checkbox' })}
                />
                <Tabs value={tab} onChange={(value) => value && setTab(value as KnowledgeBaseTab)} keepMounted>
                  <Tabs.List mb="md" style={{ flexWrap: 'wrap' }}>
                    {knowledgeBaseTabs.map((value) => (
                      <Tabs.Tab key={value} value={value} leftSection={tabIcons[value]}>
                        {texts.tabs[value]}
                      </Tabs.Tab>
                    ))}
                  </Tabs.List>
                  <Tabs.Panel value="personal">
                    <Stack gap="md">
                      <TextInput label={texts.fullName} required autoComplete="name" key={form.key('fullName')} {...form.getInputProps('fullName')} />
                      <TextInput label={texts.jobTitle} required autoComplete="organization-title" key={form.key('jobTitle')} {...form.getInputProps('jobTitle')} />
                      <TextInput label={texts.company} required autoComplete="organization" key={form.key('company')} {...form.getInputProps('company')} />
                    </Stack>
                  </Tabs.Panel>
                  <Tabs.Panel value="role">
                    <Stack gap="md">
                      <TextInput label={texts.department} key={form.key('department')} {...form.getInputProps('department')} />
                      <TextInput label={texts.manager} key={form.key('manager')} {...form.getInputProps('manager')} />
                      <NumberInput
                        label={texts.directReports}
                        min={0}
                        allowDecimal={false}
                        allowNegative={false}
                        maw={240}
                        key={form.key('directReports')}
                        {...form.getInputProps('directReports')}
                      />
                      <Textarea label={texts.team} description={texts.teamDescription} autosize minRows={2} key={form.key('team')} {...form.getInputProps('team')} />
                      <Textarea
                        label={texts.stakeholders}
                        description={texts.stakeholdersDescription}
                        autosize
                        minRows={2}
                        key={form.key('stakeholders')}
                        {...form.getInputProps('stakeholders')}
                      />
                    </Stack>
                  </Tabs.Panel>
                  <Tabs.Panel value="communication">
                    <Stack gap="md">
                      <Select
                        label={texts.emailTone}
                        placeholder={texts.emailTonePlaceholder}
                        data={[...emailTones]}
                        required
                        allowDeselect={false}
                        maw={320}
                        key={form.key('emailTone')}
                        {...form.getInputProps('emailTone')}
                      />
                      <Textarea
                        label={texts.signatureStyle}
                        description={texts.signatureStyleDescription}
                        autosize
                        minRows={2}
                        key={form.key('signatureStyle')}
                        {...form.getInputProps('signatureStyle')}
                      />
                      <Textarea
                        label={texts.writingExamples}
                        description={texts.writingExamplesDescription}
                        autosize
                        minRows={4}
                        maxRows={12}
                        key={form.key('writingExamples')}
                        {...form.getInputProps('writingExamples')}
                      />
                    </Stack>
                  </Tabs.Panel>
                  <Tabs.Panel value="notes">
                    <Textarea
                      label={texts.coachNotes}
                      description={texts.coachNotesDescription}
                      autosize
                      minRows={5}
                      maxRows={16}
                      key={form.key('coachNotes')}
                      {...form.getInputProps('coachNotes')}
                    />
                  </Tabs.Panel>
                </Tabs>
                <Group justify="flex-end" gap="sm">
                  {showSaved && (
                    <Badge color="teal" variant="light" size="lg" role="status">
                      {texts.saved}
                    </Badge>
                  )}
                  <Button type="submit" loading={save.isPending}>
                    {texts.save}
                  </Button>
                </Group>
              </Stack>
            </Paper>
          </form>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <KnowledgeBaseSummary kb={stored} />
        </Grid.Col>
      </Grid>
    </PageFrame>
  );
}

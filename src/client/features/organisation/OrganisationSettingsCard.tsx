import { Button, Card, Checkbox, Group, NumberInput, Select, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { NudgeChannel } from '../../../shared/schemas/nudges';
import { organisationLimits, organisationRetentions, type OrganisationRetention } from '../../../shared/schemas/organisations';
import { organisationTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

const texts = organisationTexts.console;
const outsideChannels = ['email', 'push', 'call'] as const;
/** The Select's value for the default (OPENAI_BASE_URL): no region name can be it. */
const defaultRegion = '__default';

// /admin's settings card: the organisation's name, seats and retention, the channels nudges may use,
// whether phone calls with the coach are allowed, and (when the server has OPENAI_REGIONS) the model
// region. Saved through admin.updateOrganisation (PATCH /api/admin/organisation), as every admin change.
export function OrganisationSettingsCard() {
  const organisation = useQuery(trpc.admin.organisation.queryOptions(undefined, { retry: false }));
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="org-settings-heading">
      <Title id="org-settings-heading" order={2} size="h5" mb={4}>
        {texts.settingsHeading}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {texts.settingsDescription}
      </Text>
      {organisation.data ? <SettingsForm key={JSON.stringify(organisation.data)} settings={organisation.data} /> : <Skeleton height={160} />}
    </Card>
  );
}

type Settings = {
  name: string;
  seats: number | null;
  retention: OrganisationRetention;
  nudgeChannels: NudgeChannel[];
  phoneCalls: boolean;
  modelRegion?: string | null;
  modelRegions?: string[];
};

function SettingsForm(props: { settings: Settings }) {
  const queryClient = useQueryClient();
  const { settings } = props;
  const [name, setName] = useState(settings.name);
  const [seats, setSeats] = useState<number | string>(settings.seats ?? '');
  const [retention, setRetention] = useState<OrganisationRetention>(settings.retention);
  const [channels, setChannels] = useState<string[]>(settings.nudgeChannels.filter((channel) => channel !== 'app'));
  const [phoneCalls, setPhoneCalls] = useState(settings.phoneCalls);
  const [region, setRegion] = useState<string>(settings.modelRegion ?? defaultRegion);
  const save = useMutation(
    trpc.admin.updateOrganisation.mutationOptions({
      onSuccess: () => notify.success(texts.saved),
      onError: (error) => notify.error(texts.saveFailed, errorMessage(error, texts.saveFailed)),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.admin.organisation.queryKey() }),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      name,
      seats: typeof seats === 'number' ? seats : null,
      retention,
      nudgeChannels: ['app', ...(channels as NudgeChannel[])],
      phoneCalls,
      ...(settings.modelRegions ? { modelRegion: region === defaultRegion ? null : region } : {}),
    });
  };
  return (
    <form onSubmit={submit} aria-labelledby="org-settings-heading">
      <Stack gap="md">
        <Group grow align="flex-start" wrap="wrap">
          <TextInput label={texts.nameLabel} value={name} onChange={(event) => setName(event.currentTarget.value)} maxLength={200} required />
          <NumberInput label={texts.seatsLabel} placeholder={texts.seatsPlaceholder} value={seats} onChange={setSeats} min={0} max={organisationLimits.maxSeats} allowDecimal={false} allowNegative={false} />
        </Group>
        <Select
          label={texts.retentionLabel}
          data={organisationRetentions.map((value) => ({ value, label: texts.retentions[value] }))}
          value={retention}
          onChange={(value) => value && setRetention(value as OrganisationRetention)}
          allowDeselect={false}
        />
        <Checkbox.Group label={texts.channelsLabel} description={texts.channelsDescription} value={channels} onChange={setChannels}>
          <Group gap="md" mt={6}>
            {outsideChannels.map((channel) => (
              <Checkbox key={channel} value={channel} label={texts.channelNames[channel]} />
            ))}
          </Group>
        </Checkbox.Group>
        <Switch label={texts.phoneCallsLabel} description={texts.phoneCallsDescription} checked={phoneCalls} onChange={(event) => setPhoneCalls(event.currentTarget.checked)} />
        {settings.modelRegions && (
          <Select
            label={texts.modelRegionLabel}
            description={texts.modelRegionDescription}
            data={[{ value: defaultRegion, label: texts.modelRegionDefault }, ...settings.modelRegions.map((name) => ({ value: name, label: name }))]}
            value={region}
            onChange={(value) => setRegion(value ?? defaultRegion)}
            allowDeselect={false}
          />
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {texts.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

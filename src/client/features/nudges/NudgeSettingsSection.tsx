import { Anchor, Button, Group, NumberInput, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type NudgeSettings, type NudgeSettingsView, nudgeLimits, weekDays } from '../../../shared/schemas/nudges';
import { nudgesTexts, organisationTexts, settingsTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { SettingsSection } from '../settings/SettingsSection';
import { useSession } from '../auth/useSession';
import { GuestNudgesNote } from './GuestNudgesNote';
import { subscribeThisBrowser, unsubscribeThisBrowser } from './pushSubscription';
import { useRunNow } from './useRunNow';

// Settings, Notifications: the nudges, with the next planned run and 'Run now'.
export function NudgeSettingsSection() {
  const { guest } = useSession();
  // A guest space has no nudge settings (an account's): Run now, in the app, and the history.
  const query = useQuery({ ...trpc.nudges.settings.queryOptions(), enabled: !guest });
  if (guest) return <GuestNudgesSection />;
  if (!query.data) return null;
  return <NudgeSettingsForm key={JSON.stringify(query.data)} settings={query.data} />;
}

function RunNowAndHistory() {
  const { runNow, pending } = useRunNow({ toastStarted: true });
  return (
    <Group gap="sm">
      <Button variant="light" onClick={() => void runNow()} loading={pending}>
        {nudgesTexts.runNow}
      </Button>
      <Anchor component={Link} to="/nudges" size="sm">
        {nudgesTexts.historyLink}
      </Anchor>
    </Group>
  );
}

function GuestNudgesSection() {
  return (
    <SettingsSection heading={nudgesTexts.settingsTitle} description={nudgesTexts.settingsDescription}>
      <GuestNudgesNote />
      <RunNowAndHistory />
    </SettingsSection>
  );
}

function formatWhen(iso: string, timeZone: string) {
  return new Intl.DateTimeFormat(undefined, { timeZone, weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

function NudgeSettingsForm(props: { settings: NudgeSettingsView }) {
  const queryClient = useQueryClient();
  const save = useMutation(trpc.nudges.saveSettings.mutationOptions());
  const { timeZone: _zone, nextRun: _next, turnedOffByOrganisation: turnedOff, ...initial } = props.settings;
  const form = useForm<NudgeSettings>({ mode: 'uncontrolled', initialValues: initial });
  // A channel the organisation turned off is shown unavailable; the member's own choice is kept for when it is on again.
  const channel = (name: keyof NudgeSettings['channels'], label: string) =>
    turnedOff.includes(name) ? (
      <Switch label={label} checked={false} disabled description={organisationTexts.member.channelTurnedOff} onChange={() => {}} />
    ) : (
      <Switch label={label} key={form.key(`channels.${name}`)} {...form.getInputProps(`channels.${name}`, { type: 'checkbox' })} />
    );

  const submit = form.onSubmit(async (values) => {
    try {
      // This browser subscribes (or unsubscribes) when push is switched, before the save.
      if (values.channels.push && !initial.channels.push) {
        try {
          await subscribeThisBrowser();
        } catch (error) {
          notify.error(nudgesTexts.pushFailedTitle, error instanceof Error && error.message ? error.message : nudgesTexts.pushUnsupported);
          return;
        }
      } else if (!values.channels.push && initial.channels.push) {
        await unsubscribeThisBrowser();
      }
      const saved = await save.mutateAsync(values);
      queryClient.setQueryData(trpc.nudges.settings.queryKey(), saved);
      notify.success(nudgesTexts.saved, saved.nextRun ? nudgesTexts.nextRun(formatWhen(saved.nextRun.at, saved.timeZone)) : nudgesTexts.noNextRun);
    } catch (error) {
      notify.error(settingsTexts.saveFailedTitle, errorMessage(error, settingsTexts.saveFailedBody));
    }
  });

  return (
    <SettingsSection heading={nudgesTexts.settingsTitle} description={nudgesTexts.settingsDescription} onSubmit={submit} saving={save.isPending} saveLabel={nudgesTexts.save}>
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" data-testid="nudge-next-run">
            {props.settings.nextRun ? nudgesTexts.nextRun(formatWhen(props.settings.nextRun.at, props.settings.timeZone)) : nudgesTexts.noNextRun}
          </Text>
          <RunNowAndHistory />
        </Group>
        <Text size="xs" c="dimmed">
          {nudgesTexts.timeZoneNote(props.settings.timeZone)}
        </Text>
        <div>
          <Title order={3} size="h5" mb="xs">
            {nudgesTexts.weeklyReview}
          </Title>
          <Stack gap="sm">
            <Switch label={nudgesTexts.weeklyReview} description={nudgesTexts.weeklyReviewDescription} key={form.key('weeklyReview.enabled')} {...form.getInputProps('weeklyReview.enabled', { type: 'checkbox' })} />
            <Group grow>
              <Select label={nudgesTexts.day} data={weekDays.map((d) => ({ value: d, label: nudgesTexts.days[d] ?? d }))} allowDeselect={false} key={form.key('weeklyReview.day')} {...form.getInputProps('weeklyReview.day')} />
              <TextInput type="time" label={nudgesTexts.time} key={form.key('weeklyReview.time')} {...form.getInputProps('weeklyReview.time')} />
            </Group>
          </Stack>
        </div>
        <div>
          <Title order={3} size="h5" mb="xs">
            {nudgesTexts.meetingBrief}
          </Title>
          <Stack gap="sm">
            <Switch label={nudgesTexts.meetingBrief} description={nudgesTexts.meetingBriefDescription} key={form.key('meetingBrief.enabled')} {...form.getInputProps('meetingBrief.enabled', { type: 'checkbox' })} />
            <NumberInput label={nudgesTexts.minutesBefore} min={nudgeLimits.minMinutesBefore} max={nudgeLimits.maxMinutesBefore} allowDecimal={false} key={form.key('meetingBrief.minutesBefore')} {...form.getInputProps('meetingBrief.minutesBefore')} />
          </Stack>
        </div>
        <div>
          <Title order={3} size="h5" mb="xs">
            {nudgesTexts.quietHoursTitle}
          </Title>
          <Group grow>
            <TextInput type="time" label={nudgesTexts.quietStart} key={form.key('quietHours.start')} {...form.getInputProps('quietHours.start')} />
            <TextInput type="time" label={nudgesTexts.quietEnd} key={form.key('quietHours.end')} {...form.getInputProps('quietHours.end')} />
          </Group>
        </div>
        <NumberInput label={nudgesTexts.maxPerWeek} min={nudgeLimits.minPerWeek} max={nudgeLimits.maxPerWeek} allowDecimal={false} key={form.key('maxPerWeek')} {...form.getInputProps('maxPerWeek')} />
        <div>
          <Title order={3} size="h5" mb="xs">
            {nudgesTexts.channelsTitle}
          </Title>
          <Stack gap="xs">
            {channel('email', nudgesTexts.channelEmail)}
            {channel('push', nudgesTexts.channelPush)}
            {channel('call', nudgesTexts.channelCall)}
            <Text size="xs" c="dimmed">
              {nudgesTexts.channelsNotYet}
            </Text>
          </Stack>
        </div>
      </Stack>
    </SettingsSection>
  );
}

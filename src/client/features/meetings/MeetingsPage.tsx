import { Alert, Button, Card, Group, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconFlask } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { meetingsTexts } from '../../../shared/texts';
import { PageFrame } from '../../components/shell/PageFrame';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { useSession } from '../auth/useSession';
import { RecentMeetings } from '../debriefs/RecentMeetings';
import { useMicrosoftStatus } from '../microsoft/useMicrosoftStatus';
import { MeetingCard, type Meeting } from './MeetingCard';
import { browserTimeZone, dayHeading, timeZoneOptions, wallDate } from './meetingFormat';

const dayChoices = [1, 3, 7, 14];

// /meetings: today and the coming days from Microsoft Calendar, each meeting with
// Prepare or Open prep and its attendees; 'How did it go?' after a prepared meeting.
export function MeetingsPage() {
  const status = useMicrosoftStatus();
  const session = useSession();
  const connected = Boolean(status.data?.connections.calendar.connected);
  // A demo visitor has no calendar to connect: the server answers a sample week instead.
  const samples = session.demoMode && session.guest;
  return (
    <PageFrame title={meetingsTexts.pageTitle} subtitle={meetingsTexts.pageDescription}>
      {status.isPending || session.isLoading ? (
        <MeetingsSkeleton />
      ) : !connected && !samples ? (
        <ConnectCalendar />
      ) : (
        <MeetingsList />
      )}
    </PageFrame>
  );
}

function ConnectCalendar() {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack align="center" gap="sm">
        <Text fw={600}>{meetingsTexts.connectTitle}</Text>
        <Text size="sm" c="dimmed" ta="center">
          {meetingsTexts.connectBody}
        </Text>
        <Button component={Link} to="/integrations">
          {meetingsTexts.connectButton}
        </Button>
      </Stack>
    </Card>
  );
}

function MeetingsSkeleton() {
  return (
    <Stack gap="sm" aria-busy="true" aria-label={meetingsTexts.loading}>
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} height={110} radius="md" />
      ))}
    </Stack>
  );
}

function MeetingsList() {
  const [days, setDays] = useState(7);
  const queryClient = useQueryClient();
  const meetings = useQuery(trpc.meetings.list.queryOptions({ days, timeZone: browserTimeZone() }));
  const settings = useQuery(trpc.meetings.settings.queryOptions());
  const timeZone = meetings.data?.timeZone ?? settings.data?.timeZone ?? 'UTC';
  const saveZone = useMutation(
    trpc.meetings.setTimeZone.mutationOptions({
      onSuccess: async () => {
        notify.success(meetingsTexts.timeZoneSaved);
        await queryClient.invalidateQueries({ queryKey: trpc.meetings.pathKey() });
      },
      onError: (error) => notify.error(meetingsTexts.timeZoneLabel, errorMessage(error, meetingsTexts.badTimeZone)),
    }),
  );
  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={meetingsTexts.daysLabel}
          data={dayChoices.map((n) => ({ value: String(n), label: meetingsTexts.days(n) }))}
          value={String(days)}
          onChange={(value) => value && setDays(Number(value))}
          allowDeselect={false}
          w={170}
        />
        <Select
          label={meetingsTexts.timeZoneLabel}
          data={timeZoneOptions(timeZone)}
          value={timeZone}
          searchable
          allowDeselect={false}
          onChange={(value) => value && value !== timeZone && saveZone.mutate({ timeZone: value })}
          w={240}
        />
      </Group>
      {meetings.data?.sample && (
        <Alert color="grape" variant="light" icon={<IconFlask size={18} aria-hidden />} title={meetingsTexts.sampleNoticeTitle}>
          <Text size="sm">{meetingsTexts.sampleNotice}</Text>
        </Alert>
      )}
      {meetings.isPending ? (
        <MeetingsSkeleton />
      ) : meetings.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={meetingsTexts.errorTitle} role="alert">
          <Stack gap={6}>
            <Text size="sm">{errorMessage(meetings.error, meetingsTexts.fetchError)}</Text>
            <div>
              <Button size="xs" variant="light" color="red" onClick={() => void meetings.refetch()}>
                {meetingsTexts.retry}
              </Button>
            </div>
          </Stack>
        </Alert>
      ) : meetings.data.meetings.length === 0 ? (
        <Card withBorder radius="md" padding="lg">
          <Text ta="center" c="dimmed">
            {meetingsTexts.empty}
          </Text>
        </Card>
      ) : (
        <Days meetings={meetings.data.meetings} timeZone={timeZone} />
      )}
      <RecentMeetings />
    </Stack>
  );
}

function Days(props: { meetings: Meeting[]; timeZone: string }) {
  const byDay = new Map<string, Meeting[]>();
  for (const meeting of props.meetings) {
    const day = wallDate(meeting.start);
    byDay.set(day, [...(byDay.get(day) ?? []), meeting]);
  }
  return (
    <Stack gap="lg">
      {[...byDay].map(([day, list]) => (
        <section key={day} aria-label={dayHeading(day, props.timeZone, meetingsTexts)}>
          <Title order={2} size="h5" mb="xs">
            {dayHeading(day, props.timeZone, meetingsTexts)}
          </Title>
          <Stack gap="sm">
            {list.map((meeting) => (
              <MeetingCard key={meeting.id} meeting={meeting} />
            ))}
          </Stack>
        </section>
      ))}
    </Stack>
  );
}

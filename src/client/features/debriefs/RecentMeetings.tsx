import { Button, Card, Group, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { IconChartLine } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { debriefTexts, meetingsTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { browserTimeZone, wallDate, wallTime } from '../meetings/meetingFormat';
import { SampleBadge } from '../../components/SampleBadge';

// On /meetings: the Teams meetings of the last week that have ended, each with 'Debrief' (made
// from its transcript) or 'Open debrief'.
export function RecentMeetings() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const recent = useQuery(trpc.debriefs.recent.queryOptions({ timeZone: browserTimeZone() }));
  const create = useMutation(
    trpc.debriefs.create.mutationOptions({
      onSuccess: async ({ debrief }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.debriefs.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
        await navigate({ to: '/debrief', search: { meeting: debrief.meetingId } });
      },
      onError: (error) => notify.error(debriefTexts.debriefButton, errorMessage(error, debriefTexts.fetchError)),
    }),
  );
  if (recent.isPending) return <Skeleton height={90} radius="md" />;
  if (recent.isError) return null;
  const sample = recent.data.meetings.some((m) => m.sample);
  return (
    <section aria-labelledby="recent-teams-meetings">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5" id="recent-teams-meetings">
          {debriefTexts.recentHeading}
        </Title>
        <Button component={Link} to="/debriefs" size="xs" variant="subtle" leftSection={<IconChartLine size={16} aria-hidden />}>
          {debriefTexts.trendsLink}
        </Button>
      </Group>
      {!sample && <AutomaticSwitch />}
      {recent.data.meetings.length === 0 ? (
        <Text size="sm" c="dimmed">
          {debriefTexts.recentEmpty}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {recent.data.meetings.map((meeting) => (
            <Card key={meeting.id} withBorder radius="md" padding="sm" component="li" aria-label={meeting.subject || 'Meeting'}>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <div style={{ minWidth: 0, flex: '1 1 200px' }}>
                  <Text size="sm" c="dimmed">
                    {wallDate(meeting.start)} · {wallTime(meeting.start)}–{wallTime(meeting.end)}
                  </Text>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {meeting.subject || meetingsTexts.noSubject}
                  </Text>
                </div>
                <Group gap="xs">
                  {meeting.sample && (
                    <SampleBadge />
                  )}
                  {meeting.debriefedAt ? (
                    <Button size="xs" variant="light" onClick={() => void navigate({ to: '/debrief', search: { meeting: meeting.id } })} aria-label={`${debriefTexts.openDebrief}: ${meeting.subject}`}>
                      {debriefTexts.openDebrief}
                    </Button>
                  ) : (
                    <Button
                      size="xs"
                      onClick={() => create.mutate({ id: meeting.id, timeZone: meeting.sample ? browserTimeZone() : undefined })}
                      loading={create.isPending && create.variables?.id === meeting.id}
                      aria-label={`${debriefTexts.debriefButton}: ${meeting.subject}`}
                    >
                      {debriefTexts.debriefButton}
                    </Button>
                  )}
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
    </section>
  );
}

/** 'Debrief my Teams meetings automatically': off until the user turns it on. */
function AutomaticSwitch() {
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.debriefs.settings.queryOptions());
  const save = useMutation(
    trpc.debriefs.saveSettings.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.debriefs.settings.queryKey() });
      },
      onError: (error) => notify.error(debriefTexts.automaticLabel, errorMessage(error, debriefTexts.fetchError)),
    }),
  );
  if (!settings.data) return null;
  return (
    <Switch
      mb="sm"
      label={debriefTexts.automaticLabel}
      description={debriefTexts.automaticDescription}
      checked={save.isPending ? Boolean(save.variables?.automatic) : settings.data.automatic}
      disabled={save.isPending}
      onChange={(event) => save.mutate({ automatic: event.currentTarget.checked })}
    />
  );
}

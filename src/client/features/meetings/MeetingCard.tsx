import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import type { Meeting as SharedMeeting, MeetingPerson } from '../../../shared/meeting';
import { meetingsTexts, rehearsalTexts } from '../../../shared/texts';
import type { AppRouter } from '../../../server/trpc/root';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { browserTimeZone, wallTime } from './meetingFormat';
import { ReflectionForm } from './ReflectionForm';
import { RehearseButton } from '../rehearsals/StartRehearsalDialog';
import { SampleBadge } from '../../components/SampleBadge';

export type Meeting = inferRouterOutputs<AppRouter>['meetings']['list']['meetings'][number];

/** The start form's prefill from a meeting: the other person (the server picks the same when left out) and the subject. */
export function rehearsalPrefill(meeting: Pick<SharedMeeting, 'id' | 'subject' | 'organizer'> & { attendees: MeetingPerson[]; sample?: boolean }, ownName?: string) {
  const other = [meeting.organizer, ...meeting.attendees].find((p) => (p.name || p.email) && p.name !== ownName);
  return { name: other ? other.name || other.email : '', situation: meeting.subject ? `The meeting "${meeting.subject}".` : '', meetingId: meeting.id, subject: meeting.subject, sample: meeting.sample };
}

export function MeetingCard(props: { meeting: Meeting }) {
  const { meeting } = props;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const prepare = useMutation(
    trpc.meetings.prep.mutationOptions({
      onSuccess: async ({ chatId }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.meetings.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
        await navigate({ to: '/app', search: { chat: chatId } });
      },
      onError: (error) => notify.error(meetingsTexts.prepare, errorMessage(error, meetingsTexts.fetchError)),
    }),
  );
  const names = meeting.attendees.map((a) => a.name || a.email);
  const ownName = useQuery(trpc.auth.session.queryOptions()).data?.user?.fullName;
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={meeting.subject || 'Meeting'}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <div style={{ minWidth: 0, flex: '1 1 220px' }}>
            <Text size="sm" c="dimmed">
              {wallTime(meeting.start)}–{wallTime(meeting.end)}
              {meeting.location ? ` · ${meeting.location}` : ''}
            </Text>
            <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
              {meeting.subject || meetingsTexts.noSubject}
            </Title>
          </div>
          <Group gap="xs">
            {meeting.sample && (
              <SampleBadge />
            )}
            {meeting.isOnline && <Badge variant="light">{meetingsTexts.online}</Badge>}
            {meeting.agendaSavedAt && (
              <Badge variant="light" color="teal">
                {meetingsTexts.agendaSaved}
              </Badge>
            )}
          </Group>
        </Group>
        {meeting.organizer.name && (
          <Text size="sm">{meetingsTexts.organizer(meeting.organizer.name)}</Text>
        )}
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {names.length ? `${meetingsTexts.attendees(names.length)}: ${names.join(', ')}` : meetingsTexts.noAttendees}
        </Text>
        {meeting.needsReflection && <ReflectionForm meetingId={meeting.id} subject={meeting.subject} openChat />}
        <Group gap="xs">
          {meeting.prepChatId ? (
            <Button size="xs" variant="light" onClick={() => void navigate({ to: '/app', search: { chat: meeting.prepChatId ?? undefined } })} aria-label={`${meetingsTexts.openPrep}: ${meeting.subject}`}>
              {meetingsTexts.openPrep}
            </Button>
          ) : (
            <Button size="xs" onClick={() => prepare.mutate({ id: meeting.id, timeZone: meeting.sample ? browserTimeZone() : undefined })} loading={prepare.isPending} aria-label={`${meetingsTexts.prepare}: ${meeting.subject}`}>
              {meetingsTexts.prepare}
            </Button>
          )}
          <RehearseButton prefill={rehearsalPrefill(meeting, ownName)} label={`${rehearsalTexts.rehearse}: ${meeting.subject}`} />
          {meeting.joinUrl && (
            <Anchor href={meeting.joinUrl} target="_blank" rel="noreferrer" size="sm">
              {meetingsTexts.join}
            </Anchor>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

import { Button, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { MeetingPerson } from '../../../shared/meeting';
import { chatTexts, meetingsTexts, microsoftTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { trpc } from '../../lib/trpc';
import { useSession } from '../auth/useSession';
import { browserTimeZone, dayHeading, wallDate, wallTime } from '../meetings/meetingFormat';
import { useSaveAgenda } from '../meetings/meetingAgenda';
import { agendaMinutes, agendaMailtoLink, agendaText, calendarFileStart } from './agenda';

// In a chat that prepares no meeting, the agenda's save and email buttons ask which meeting it is
// for, from the coming week, instead of guessing: the invite of the one chosen gets the agenda, or
// a mail draft opens addressed to its participants. What happens without a meeting is said.

export type PickFor = 'save' | 'email';

/** The meeting's participants to write to: everyone but the user. */
function recipientsOf(meeting: { organizer: MeetingPerson; attendees: MeetingPerson[] }, me: { email?: string | null; fullName?: string | null } | null): string[] {
  const ownEmail = me?.email?.toLowerCase();
  const ownName = me?.fullName?.trim().toLowerCase();
  const seen = new Set<string>();
  return [meeting.organizer, ...meeting.attendees]
    .filter((person) => person.email && person.email.toLowerCase() !== ownEmail && (!ownName || person.name.trim().toLowerCase() !== ownName))
    .map((person) => person.email)
    .filter((email) => {
      const key = email.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

export function AgendaMeetingPicker(props: { pickFor: PickFor | null; text: string; onClose: () => void; onDownload: () => void }) {
  const opened = props.pickFor !== null;
  const week = useQuery({ ...trpc.meetings.list.queryOptions({ days: 7, timeZone: browserTimeZone() }), enabled: opened, retry: false, staleTime: 60_000 });
  const { user } = useSession();
  const save = useSaveAgenda(props.onClose);
  const meetings = week.data?.meetings.filter((m) => Date.parse(m.end) > Date.now()) ?? [];
  const timeZone = week.data?.timeZone ?? 'UTC';
  const choice = (meeting: (typeof meetings)[number]) =>
    // Emailing is a link to a mail draft addressed to the meeting's participants; saving writes the invite.
    props.pickFor === 'email'
      ? ({ component: 'a', href: agendaMailtoLink(props.text, { subject: meeting.subject, recipients: recipientsOf(meeting, user) }), onClick: props.onClose } as const)
      : ({ onClick: () => save.mutate({ id: meeting.id, text: agendaText(props.text) }) } as const);
  return (
    <Modal opened={opened} onClose={props.onClose} title={chatTexts.agendaPickTitle} centered>
      <Stack gap="sm">
        <Text size="sm">{props.pickFor === 'email' ? chatTexts.agendaPickEmailHint : chatTexts.agendaPickSaveHint}</Text>
        {week.isPending ? (
          <Text size="sm" c="dimmed" role="status">
            <Loader size="xs" mr="xs" aria-hidden />
            {chatTexts.agendaPickLoading}
          </Text>
        ) : week.isError ? (
          <Text size="sm" c="dimmed">
            {errorMessage(week.error, meetingsTexts.fetchError)}
          </Text>
        ) : meetings.length ? (
          // biome-ignore lint/a11y/useSemanticElements: a list of choices, each a button; a fieldset would add form semantics
          <Stack gap={6} role="group" aria-label={chatTexts.agendaPickListLabel}>
            {meetings.map((meeting) => {
              const subject = meeting.subject || microsoftTexts.noSubject;
              const when = `${dayHeading(wallDate(meeting.start), timeZone, meetingsTexts)}, ${wallTime(meeting.start)}`;
              return (
                <Button
                  key={meeting.id}
                  variant="light"
                  justify="flex-start"
                  styles={{ root: { height: 'auto', minHeight: 44, paddingTop: 6, paddingBottom: 6 }, label: { whiteSpace: 'normal', textAlign: 'left' } }}
                  aria-label={chatTexts.agendaPickMeeting(subject, when)}
                  loading={save.isPending && save.variables?.id === meeting.id}
                  disabled={save.isPending}
                  {...choice(meeting)}
                >
                  <span>
                    <Text component="span" size="sm" fw={600} display="block" lh={1.3}>
                      {subject}
                    </Text>
                    <Text component="span" size="xs" fw={400} display="block" lh={1.3}>
                      {when}
                    </Text>
                  </span>
                </Button>
              );
            })}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {chatTexts.agendaPickNone}
          </Text>
        )}
        <Text size="sm">{props.pickFor === 'email' ? chatTexts.agendaPickDraftHint : chatTexts.agendaPickDownloadHint(calendarFileStart(), agendaMinutes(props.text))}</Text>
        {props.pickFor === 'email' ? (
          <Button variant="default" component="a" href={agendaMailtoLink(props.text)} onClick={props.onClose}>
            {chatTexts.agendaPickDraft}
          </Button>
        ) : (
          <Button
            variant="default"
            onClick={() => {
              props.onDownload();
              props.onClose();
            }}
          >
            {chatTexts.agendaPickDownload}
          </Button>
        )}
      </Stack>
    </Modal>
  );
}

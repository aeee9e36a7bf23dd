import { Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { rehearsalTexts } from '../../../shared/texts';
import { trpc } from '../../lib/trpc';
import { RehearseButton } from '../rehearsals/StartRehearsalDialog';
import { usePrepOfChat } from './meetingAgenda';
import { rehearsalPrefill } from './MeetingCard';
import { ReflectionForm } from './ReflectionForm';

// What a prep chat offers beside its messages: 'Rehearse', prefilled from its meeting,
// and 'How did it go?' once the meeting has ended. Loaded by ChatPage with a prep chat; the agenda
// buttons' part, which every stored chat's replies may need, is meetingAgenda.tsx (this module
// brings the rehearsal dialog and its form's schemas, about 33 KB gzipped).

/** A prep chat offers 'Rehearse', prefilled from its meeting. */
export function PrepRehearse(props: { chatId: number }) {
  const prep = usePrepOfChat(props.chatId).data?.prep;
  const ownName = useQuery(trpc.auth.session.queryOptions()).data?.user?.fullName;
  if (!prep) return null;
  return (
    <Group px="md" py="xs">
      <RehearseButton variant="light" prefill={rehearsalPrefill({ id: prep.meetingId, subject: prep.subject, organizer: prep.organizer, attendees: prep.attendees, sample: prep.sample }, ownName)} label={`${rehearsalTexts.rehearse}: ${prep.subject}`} />
    </Group>
  );
}

/** 'How did it go?' inside a prep chat whose meeting ended in the last day. */
export function PrepReflection(props: { chatId: number }) {
  const prep = usePrepOfChat(props.chatId).data?.prep;
  if (!prep?.needsReflection) return null;
  return <ReflectionForm meetingId={prep.meetingId} subject={prep.subject} />;
}

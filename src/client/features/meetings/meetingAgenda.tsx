import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { meetingsTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

// The agenda buttons under a coach's reply act on the meeting a chat prepares. Apart
// from MeetingAgendaActions.tsx (the prep chat's Rehearse and reflection), so that a stored chat's
// thread, whose replies may carry an agenda, does not load the rehearsal dialog with it.

/** The meeting a chat prepares, if any (one query per chat, shared by its agenda replies). */
export function usePrepOfChat(chatId: number) {
  return useQuery({ ...trpc.meetings.prepOfChat.queryOptions({ chatId }), staleTime: 60_000 });
}

type Action = 'save' | 'email';

/** Writing an agenda into a meeting's invite, with its toasts; `done` runs after either answer. */
export function useSaveAgenda(done: () => void) {
  const queryClient = useQueryClient();
  return useMutation(
    trpc.meetings.saveAgenda.mutationOptions({
      onSuccess: async (result) => {
        if (result.sample) notify.info(meetingsTexts.sampleActionTitle, result.message);
        else notify.success(meetingsTexts.agendaSavedTitle, meetingsTexts.agendaSavedBody(result.subject));
        done();
        await queryClient.invalidateQueries({ queryKey: trpc.meetings.pathKey() });
      },
      onError: (error) => {
        done();
        notify.error(meetingsTexts.saveAgendaError, errorMessage(error, meetingsTexts.saveAgendaError));
      },
    }),
  );
}

/**
 * In a prep chat the two agenda buttons act on the real meeting: after a confirmation,
 * the agenda is written into the invite (PATCH on Graph) or emailed to every other participant.
 */
export function useMeetingAgendaActions(chatId: number, text: string) {
  const prepQuery = usePrepOfChat(chatId);
  const prep = prepQuery.data?.prep ?? null;
  const [asking, setAsking] = useState<Action | null>(null);
  const queryClient = useQueryClient();
  // Whether this chat prepares a meeting, waiting for the answer if it is still on its way: a
  // click before it arrived did the plain chat's action (a calendar file, a mail draft) in a prep
  // chat. An answer that cannot be had counts as no meeting, as it does on screen.
  const loadPrep = async () => (await queryClient.ensureQueryData(trpc.meetings.prepOfChat.queryOptions({ chatId })).catch(() => null))?.prep ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.meetings.pathKey() });
  const save = useSaveAgenda(() => setAsking(null));
  const email = useMutation(
    trpc.meetings.emailAgenda.mutationOptions({
      onSuccess: async (result) => {
        if (result.sample) notify.info(meetingsTexts.sampleActionTitle, result.message);
        else notify.success(meetingsTexts.agendaEmailedTitle, meetingsTexts.agendaEmailedBody(result.recipients.map((r) => r.name || r.email)));
        setAsking(null);
        await refresh();
      },
      onError: (error) => {
        setAsking(null);
        notify.error(meetingsTexts.emailAgendaError, errorMessage(error, meetingsTexts.emailAgendaError));
      },
    }),
  );
  const others = prep ? [prep.organizer, ...prep.attendees].map((p) => p.name || p.email).filter((name, i, all) => name && all.indexOf(name) === i) : [];
  const confirm = prep ? (
    <Modal opened={asking !== null} onClose={() => setAsking(null)} title={asking === 'email' ? meetingsTexts.confirmEmailTitle : meetingsTexts.confirmSaveTitle} centered>
      <Stack gap="md">
        <Text size="sm">{prep.sample ? meetingsTexts.sampleConfirmBody : asking === 'email' ? meetingsTexts.confirmEmailBody(others) : meetingsTexts.confirmSaveBody}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={() => setAsking(null)}>
            {meetingsTexts.cancel}
          </Button>
          <Button
            loading={save.isPending || email.isPending}
            onClick={() => (asking === 'email' ? email : save).mutate({ id: prep.meetingId, text })}
          >
            {meetingsTexts.confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  ) : null;
  return { prep, known: !prepQuery.isPending, loadPrep, ask: setAsking, confirm };
}

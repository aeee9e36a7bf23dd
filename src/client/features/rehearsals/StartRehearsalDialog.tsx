import { Button, Modal, SegmentedControl, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { rehearsalDifficulties, rehearsalLimits, type RehearsalDifficulty } from '../../../shared/schemas/rehearsals';
import { rehearsalTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

/** What a meeting (or a prep chat) fills in: who it is with and what it is about. */
export type RehearsalPrefill = { name?: string; situation?: string; meetingId?: string; subject?: string; sample?: boolean };

/** The start form: who, the situation, the goal (kept from the other person) and the difficulty. */
export function StartRehearsalDialog(props: { opened: boolean; onClose: () => void; prefill?: RehearsalPrefill }) {
  const t = rehearsalTexts;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(props.prefill?.name ?? '');
  const [role, setRole] = useState('');
  const [relationship, setRelationship] = useState('');
  const [situation, setSituation] = useState(props.prefill?.situation ?? '');
  const [goal, setGoal] = useState('');
  const [difficulty, setDifficulty] = useState<RehearsalDifficulty>('realistic');
  const start = useMutation(
    trpc.rehearsals.create.mutationOptions({
      onSuccess: async ({ chatId }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.rehearsals.list.queryKey() });
        props.onClose();
        await navigate({ to: '/app', search: { chat: chatId } });
      },
      onError: (error) => notify.error(t.startFailed, errorMessage(error, t.startFailed)),
    }),
  );
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    start.mutate({
      counterpart: { name, role: role || undefined, relationship: relationship || undefined },
      situation,
      goal,
      difficulty,
      meetingId: props.prefill?.meetingId,
      timeZone: props.prefill?.sample ? Intl.DateTimeFormat().resolvedOptions().timeZone : undefined,
    });
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t.dialogTitle} size="lg">
      <form onSubmit={submit} aria-label={t.dialogTitle}>
        <Stack gap="sm">
          {props.prefill?.subject && (
            <Text size="sm" c="dimmed">
              {t.fromMeeting(props.prefill.subject)}
            </Text>
          )}
          <TextInput label={t.nameLabel} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={rehearsalLimits.maxName} required data-autofocus />
          <TextInput label={t.roleLabel} value={role} onChange={(e) => setRole(e.currentTarget.value)} maxLength={rehearsalLimits.maxRole} />
          <TextInput label={t.relationshipLabel} value={relationship} onChange={(e) => setRelationship(e.currentTarget.value)} maxLength={rehearsalLimits.maxRole} />
          <Textarea
            label={t.situationLabel}
            placeholder={t.situationPlaceholder}
            value={situation}
            onChange={(e) => setSituation(e.currentTarget.value)}
            maxLength={rehearsalLimits.maxSituation}
            autosize
            minRows={3}
            required
          />
          <TextInput label={t.goalLabel} description={t.goalHint} value={goal} onChange={(e) => setGoal(e.currentTarget.value)} maxLength={rehearsalLimits.maxGoal} required />
          <div>
            <Text size="sm" fw={500} mb={4} id="rehearsal-difficulty">
              {t.difficultyLabel}
            </Text>
            <SegmentedControl
              aria-labelledby="rehearsal-difficulty"
              value={difficulty}
              onChange={(value) => setDifficulty(value as RehearsalDifficulty)}
              data={rehearsalDifficulties.map((d) => ({ value: d, label: t.difficulties[d] }))}
            />
          </div>
          <Button type="submit" loading={start.isPending}>
            {t.start}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

/** A 'Rehearse' button that opens the start form, prefilled. */
export function RehearseButton(props: { prefill?: RehearsalPrefill; label?: string; size?: 'xs' | 'sm'; variant?: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button size={props.size ?? 'xs'} variant={props.variant ?? 'default'} onClick={() => setOpened(true)} aria-label={props.label ?? rehearsalTexts.rehearse}>
        {rehearsalTexts.rehearse}
      </Button>
      {opened && <StartRehearsalDialog opened onClose={() => setOpened(false)} prefill={props.prefill} />}
    </>
  );
}

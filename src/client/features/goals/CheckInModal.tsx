import { Button, Group, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { checkInSchema, goalLimits, type GoalView } from '../../../shared/schemas/goals';
import { commonTexts, goalTexts } from '../../../shared/texts';
import { errorMessage, fieldErrorsOf } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { withUnit } from './goalFormat';
import { upsertGoal } from './goalsCache';
import { useLastValue } from './useLastValue';

export type CheckInTarget = { goal: GoalView; keyResult: GoalView['keyResults'][number] };

type CheckInValues = { goalId: number; keyResultId: number; value: number | string; note: string };

/** Logs a key result's current value, with an optional note. */
export function CheckInModal(props: { target: CheckInTarget | null; onClose: () => void }) {
  const target = useLastValue(props.target);
  return (
    <Modal opened={props.target !== null} onClose={props.onClose} title={target ? goalTexts.checkInTitle(target.keyResult.title) : ''} centered>
      {target && <CheckInForm target={target} onDone={props.onClose} />}
    </Modal>
  );
}

function CheckInForm(props: { target: CheckInTarget; onDone: () => void }) {
  const { goal, keyResult } = props.target;
  const queryClient = useQueryClient();
  const checkIn = useMutation(trpc.goals.checkIn.mutationOptions());
  const form = useForm<CheckInValues>({
    mode: 'uncontrolled',
    initialValues: { goalId: goal.id, keyResultId: keyResult.id, value: keyResult.current, note: '' },
    validate: zod4Resolver(checkInSchema, { errorPriority: 'first' }),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const saved = await checkIn.mutateAsync({ goalId: goal.id, keyResultId: keyResult.id, value: Number(values.value), note: values.note.trim() || undefined });
      upsertGoal(queryClient, saved);
      notify.success(goalTexts.checkedIn);
      props.onDone();
    } catch (error) {
      form.setErrors(fieldErrorsOf(error));
      notify.error(goalTexts.checkInFailed, errorMessage(error, commonTexts.genericError));
    }
  });

  const valueProps = form.getInputProps('value');
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {goalTexts.startLabel}: {withUnit(keyResult.start, keyResult.unit)} · {goalTexts.targetLabel}: {withUnit(keyResult.target, keyResult.unit)}
        </Text>
        <NumberInput
          label={goalTexts.valueLabel}
          required
          data-autofocus
          key={form.key('value')}
          {...valueProps}
          // The current value is there to adjust: typing replaces it.
          onFocus={(event: React.FocusEvent<HTMLInputElement>) => {
            valueProps.onFocus?.(event);
            event.currentTarget.select();
          }}
        />
        <Textarea label={goalTexts.noteLabel} autosize minRows={2} maxRows={6} maxLength={goalLimits.maxNote} key={form.key('note')} {...form.getInputProps('note')} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onDone}>
            {goalTexts.cancel}
          </Button>
          <Button type="submit" loading={checkIn.isPending}>
            {goalTexts.checkIn}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

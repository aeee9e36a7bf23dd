import { ActionIcon, Button, Fieldset, Group, Modal, NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { randomId } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { LazyTooltip } from '../../components/LazyFloating';
import type { GoalDraft } from '../../../shared/goalDraft';
import { createGoalSchema, goalFrameworks, goalLimits, reminderCadences, type GoalFramework, type GoalView } from '../../../shared/schemas/goals';
import { authTexts, commonTexts, goalTexts } from '../../../shared/texts';
import { useSession } from '../auth/useSession';
import { errorMessage, fieldErrorsOf } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { localIsoDate } from './goalFormat';
import { upsertGoal } from './goalsCache';
import { useLastValue } from './useLastValue';

/** What the form is for: a new goal (empty, or prefilled from the coach's result) or an edit. */
export type GoalFormTarget = { kind: 'create'; draft?: GoalDraft; chatId?: number } | { kind: 'edit'; goal: GoalView };

type KeyResultValues = {
  /** React's key for the row; never sent. */
  key: string;
  id?: number;
  title: string;
  start: number | string;
  target: number | string;
  unit: string;
  /** Has check-ins: it cannot be removed (its history stays with the goal). */
  locked: boolean;
};
type GoalFormValues = { title: string; framework: GoalFramework; dueDate: string; cadence: GoalView['cadence']; keyResults: KeyResultValues[] };

const defaultDueInDays = 90;

const cadenceLabels: Record<GoalView['cadence'], string> = {
  weekly: goalTexts.cadenceWeekly,
  weekly_call: goalTexts.cadenceWeeklyCall,
  off: goalTexts.cadenceOff,
};

function emptyKeyResult(): KeyResultValues {
  return { key: randomId(), title: '', start: 0, target: '', unit: '', locked: false };
}

function initialValues(target: GoalFormTarget): GoalFormValues {
  if (target.kind === 'edit') {
    const { goal } = target;
    return {
      title: goal.title,
      framework: goal.framework,
      dueDate: goal.dueDate,
      cadence: goal.cadence,
      keyResults: goal.keyResults.map((kr) => ({
        key: randomId(),
        id: kr.id,
        title: kr.title,
        start: kr.start,
        target: kr.target,
        unit: kr.unit,
        locked: kr.checkIns.length > 0,
      })),
    };
  }
  const { draft } = target;
  return {
    title: draft?.title ?? '',
    framework: draft?.framework ?? 'SMART',
    dueDate: draft?.dueDate ?? localIsoDate(defaultDueInDays),
    cadence: 'weekly',
    keyResults: draft ? draft.keyResults.map((kr) => ({ key: randomId(), ...kr, locked: false })) : [emptyKeyResult()],
  };
}

function keyResultsInput(values: GoalFormValues) {
  return values.keyResults.map((kr) => ({ id: kr.id, title: kr.title, start: Number(kr.start), target: Number(kr.target), unit: kr.unit }));
}

/** The goal form in a dialog: New goal, Edit goal, and 'Save as goal' under a coach's result. */
export function GoalFormModal(props: { target: GoalFormTarget | null; onClose: () => void; onSaved?: (goal: GoalView) => void }) {
  const target = useLastValue(props.target);
  const title = !target ? '' : target.kind === 'edit' ? goalTexts.editGoal : target.draft ? goalTexts.saveAsGoal : goalTexts.newGoal;
  return (
    <Modal opened={props.target !== null} onClose={props.onClose} title={title} size="lg" centered>
      {target && <GoalForm target={target} onDone={props.onClose} onSaved={props.onSaved} />}
    </Modal>
  );
}

function GoalForm(props: { target: GoalFormTarget; onDone: () => void; onSaved?: (goal: GoalView) => void }) {
  const { guest } = useSession();
  const { target } = props;
  const queryClient = useQueryClient();
  const create = useMutation(trpc.goals.create.mutationOptions());
  const update = useMutation(trpc.goals.update.mutationOptions());
  const form = useForm<GoalFormValues>({
    mode: 'controlled',
    initialValues: initialValues(target),
    validate: zod4Resolver(createGoalSchema, { errorPriority: 'first' }),
  });
  const editing = target.kind === 'edit';

  const submit = form.onSubmit(async (values) => {
    try {
      if (target.kind === 'edit') {
        const goal = await update.mutateAsync({
          goalId: target.goal.id,
          title: values.title,
          dueDate: values.dueDate,
          cadence: values.cadence,
          keyResults: keyResultsInput(values),
        });
        upsertGoal(queryClient, goal);
        notify.success(goalTexts.updated);
      } else {
        const goal = await create.mutateAsync({
          title: values.title,
          framework: values.framework,
          dueDate: values.dueDate,
          cadence: values.cadence,
          keyResults: keyResultsInput(values),
          chatId: target.chatId,
        });
        upsertGoal(queryClient, goal);
        // Saved from a chat, the toast says where the goal is; on the Goals page it is in sight.
        notify.success(goalTexts.saved, target.chatId !== undefined ? goalTexts.savedBody : undefined);
        props.onSaved?.(goal);
      }
      props.onDone();
    } catch (error) {
      form.setErrors(fieldErrorsOf(error));
      notify.error(goalTexts.saveFailed, errorMessage(error, commonTexts.genericError));
    }
  });

  const keyResults = form.values.keyResults;
  const listError = form.errors.keyResults;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label={goalTexts.titleLabel} required data-autofocus maxLength={goalLimits.maxTitle} {...form.getInputProps('title')} />
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <Select
            label={goalTexts.frameworkLabel}
            data={[...goalFrameworks]}
            allowDeselect={false}
            disabled={editing}
            title={editing ? goalTexts.frameworkLocked : undefined}
            {...form.getInputProps('framework')}
          />
          <TextInput label={goalTexts.dueDateLabel} type="date" required {...form.getInputProps('dueDate')} />
          <Select
            label={goalTexts.cadenceLabel}
            // A guest space gets no calls: the option says what it needs instead.
            data={reminderCadences.map((value) => ({
              value,
              label: guest && value === 'weekly_call' ? `${cadenceLabels[value]} (${authTexts.accountRequiredFor.goalCalls})` : cadenceLabels[value],
              disabled: guest && value === 'weekly_call',
            }))}
            allowDeselect={false}
            {...form.getInputProps('cadence')}
          />
        </SimpleGrid>
        <Fieldset legend={goalTexts.keyResultsLabel} variant="unstyled" styles={{ legend: { fontWeight: 600, fontSize: 'var(--mantine-font-size-sm)', marginBottom: 6 } }}>
          <Stack gap="sm">
            {keyResults.map((kr, index) => (
              <Paper key={kr.key} withBorder radius="md" p="sm">
                <Stack gap="xs">
                  <Group gap="xs" align="flex-end" wrap="nowrap">
                    <TextInput
                      label={goalTexts.keyResultTitle}
                      required
                      maxLength={goalLimits.maxTitle}
                      style={{ flex: 1, minWidth: 0 }}
                      {...form.getInputProps(`keyResults.${index}.title`)}
                    />
                    <LazyTooltip label={kr.locked ? goalTexts.keyResultLocked : goalTexts.removeKeyResult(kr.title)} withArrow>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        size="lg"
                        mb={2}
                        aria-label={goalTexts.removeKeyResult(kr.title)}
                        // Not `disabled`: a disabled button shows no tooltip to say why.
                        data-disabled={kr.locked || undefined}
                        aria-disabled={kr.locked || undefined}
                        onClick={() => !kr.locked && form.removeListItem('keyResults', index)}
                      >
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </LazyTooltip>
                  </Group>
                  <SimpleGrid cols={3} spacing="xs">
                    <NumberInput label={goalTexts.startLabel} required {...form.getInputProps(`keyResults.${index}.start`)} />
                    <NumberInput label={goalTexts.targetLabel} required {...form.getInputProps(`keyResults.${index}.target`)} />
                    <TextInput label={goalTexts.unitLabel} maxLength={goalLimits.maxUnit} {...form.getInputProps(`keyResults.${index}.unit`)} />
                  </SimpleGrid>
                </Stack>
              </Paper>
            ))}
            {typeof listError === 'string' && (
              <Text size="sm" c="red" role="alert">
                {listError}
              </Text>
            )}
            <Group>
              <Button
                variant="light"
                size="xs"
                leftSection={<IconPlus size={14} aria-hidden />}
                disabled={keyResults.length >= goalLimits.maxKeyResults}
                onClick={() => form.insertListItem('keyResults', emptyKeyResult())}
              >
                {goalTexts.addKeyResult}
              </Button>
            </Group>
          </Stack>
        </Fieldset>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onDone}>
            {goalTexts.cancel}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {goalTexts.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

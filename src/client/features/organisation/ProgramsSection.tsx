import { Alert, Badge, Button, Card, Group, Modal, NumberInput, SegmentedControl, Select, Skeleton, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Figure } from '../../../shared/schemas/analytics';
import { programLimits, type ProgramCadence } from '../../../shared/schemas/programs';
import { organisationTexts, programTexts as texts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

// The console's programs: each one's group, week and state, its progress by week (every figure
// over the privacy floor, or the reason it is not shown), a form to start one, and End.

const stateColors = { upcoming: 'blue.8', running: 'teal.9', over: 'gray.7', ended: 'gray.7' } as const;
const figureText = (figure: Figure, minGroup: number) => ('value' in figure ? figure.value.toLocaleString('en-US') : figure.hidden === 'small' ? organisationTexts.analytics.fewerThan(minGroup) : organisationTexts.analytics.withheld);

function StartProgram({ opened, onClose, groups, departments }: { opened: boolean; onClose: () => void; groups: Array<{ id: string; name: string }>; departments: string[] }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [focus, setFocus] = useState('');
  const [target, setTarget] = useState<'group' | 'department'>(groups.length ? 'group' : 'department');
  const [groupId, setGroupId] = useState<string | null>(null);
  const [department, setDepartment] = useState<string | null>(null);
  const [weeks, setWeeks] = useState<number | string>(8);
  const [cadence, setCadence] = useState<ProgramCadence>('weekly');
  const [startsOn, setStartsOn] = useState(() => new Date().toISOString().slice(0, 10));
  const start = useMutation(
    trpc.admin.createProgram.mutationOptions({
      onSuccess: async () => {
        notify.success(texts.started);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.programs.queryKey() });
        onClose();
      },
    }),
  );
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    start.mutate({
      name,
      focus,
      weeks: Number(weeks),
      cadence,
      startsOn,
      ...(target === 'group' ? { groupId: groupId ?? '' } : { department: department ?? '' }),
    });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={texts.startTitle} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {start.isError && <Alert color="red">{errorMessage(start.error, texts.startFailed)}</Alert>}
          <TextInput label={texts.nameLabel} placeholder={texts.namePlaceholder} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={programLimits.maxName} required data-autofocus />
          <Textarea label={texts.focusLabel} placeholder={texts.focusPlaceholder} value={focus} onChange={(e) => setFocus(e.currentTarget.value)} maxLength={programLimits.maxFocus} autosize minRows={2} required />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="program-for-label">
              {texts.forLabel}
            </Text>
            <SegmentedControl
              aria-labelledby="program-for-label"
              value={target}
              onChange={(value) => setTarget(value as 'group' | 'department')}
              data={[
                { value: 'group', label: texts.groupOption },
                { value: 'department', label: texts.departmentOption },
              ]}
              style={{ alignSelf: 'flex-start' }}
            />
          </Stack>
          {target === 'group' ? (
            groups.length ? (
              <Select label={texts.groupLabel} data={groups.map((group) => ({ value: group.id, label: group.name }))} value={groupId} onChange={setGroupId} searchable required />
            ) : (
              <Text size="sm" c="dimmed">
                {texts.noGroups}
              </Text>
            )
          ) : (
            <Select label={texts.departmentLabel} data={departments} value={department} onChange={setDepartment} searchable required />
          )}
          <Group grow align="flex-start">
            <NumberInput label={texts.weeksLabel} value={weeks} onChange={setWeeks} min={programLimits.minWeeks} max={programLimits.maxWeeks} required />
            <Select
              label={texts.cadenceLabel}
              data={(['weekly', 'fortnightly', 'off'] as const).map((value) => ({ value, label: texts.cadences[value] }))}
              value={cadence}
              onChange={(value) => value && setCadence(value as ProgramCadence)}
              allowDeselect={false}
            />
            <TextInput type="date" label={texts.startsOnLabel} value={startsOn} onChange={(e) => setStartsOn(e.currentTarget.value)} required />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {texts.cancel}
            </Button>
            <Button type="submit" loading={start.isPending}>
              {texts.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function ProgramsSection() {
  const queryClient = useQueryClient();
  const programs = useQuery(trpc.admin.programs.queryOptions(undefined, { retry: false }));
  const analytics = useQuery(trpc.admin.analytics.queryOptions({}, { retry: false, staleTime: 60_000 }));
  const minGroup = analytics.data?.minGroup ?? 5;
  const [starting, setStarting] = useState(false);
  const end = useMutation(
    trpc.admin.endProgram.mutationOptions({
      onSuccess: async () => {
        notify.success(texts.ended);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.programs.queryKey() });
      },
      onError: (error) => notify.error(texts.endFailed, errorMessage(error, texts.endFailed)),
    }),
  );
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="programs-heading">
      <Group justify="space-between" mb="xs">
        <Title id="programs-heading" order={2} size="h5">
          {texts.heading}
        </Title>
        <Button size="xs" onClick={() => setStarting(true)} disabled={!programs.data}>
          {texts.start}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {texts.description(minGroup)}
      </Text>
      {programs.isError ? (
        <Alert color="red">{errorMessage(programs.error, organisationTexts.console.loadFailed)}</Alert>
      ) : !programs.data ? (
        <Skeleton height={80} />
      ) : programs.data.programs.length === 0 ? (
        <Text size="sm">{texts.empty}</Text>
      ) : (
        <Stack gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-labelledby="programs-heading">
          {programs.data.programs.map((program) => (
            <Card key={program.id} withBorder radius="sm" padding="sm" component="li" aria-label={program.name}>
              <Group justify="space-between" align="flex-start" gap="xs">
                <Stack gap={2}>
                  <Group gap="xs">
                    <Text fw={600}>{program.name}</Text>
                    <Badge color={stateColors[program.state]} variant="outline">
                      {texts.states[program.state]}
                    </Badge>
                  </Group>
                  <Text size="sm">{program.focus}</Text>
                  <Text size="xs" c="dimmed">
                    {[
                      program.group ? texts.forGroup(program.group.name) : program.department ? texts.forDepartment(program.department) : null,
                      texts.members(program.members),
                      program.week !== null ? texts.weekOf(program.week, program.weeks) : null,
                      texts.cadences[program.cadence],
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                </Stack>
                {(program.state === 'running' || program.state === 'upcoming') && (
                  <Button size="xs" variant="default" color="red" aria-label={texts.endLabel(program.name)} loading={end.isPending && end.variables?.id === program.id} onClick={() => end.mutate({ id: program.id })}>
                    {texts.end}
                  </Button>
                )}
              </Group>
              {program.progress === null ? (
                <Text size="sm" c="dimmed" mt="xs">
                  {texts.progressRefused(minGroup)}
                </Text>
              ) : program.progress.length > 0 ? (
                <Table.ScrollContainer minWidth={420} mt="xs">
                  <Table striped aria-label={`${texts.progressHeading}: ${program.name}`}>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{texts.progressColumns.week}</Table.Th>
                        <Table.Th>{texts.progressColumns.active}</Table.Th>
                        <Table.Th>{texts.progressColumns.sessions}</Table.Th>
                        <Table.Th>{texts.progressColumns.goalsSet}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {program.progress.map((week) => (
                        <Table.Tr key={week.week}>
                          <Table.Td>{week.week}</Table.Td>
                          <Table.Td>{figureText(week.active, minGroup)}</Table.Td>
                          <Table.Td>{figureText(week.sessions, minGroup)}</Table.Td>
                          <Table.Td>{figureText(week.goalsSet, minGroup)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              ) : null}
            </Card>
          ))}
        </Stack>
      )}
      {programs.data && starting && <StartProgram opened onClose={() => setStarting(false)} groups={programs.data.groups} departments={programs.data.departments} />}
    </Card>
  );
}

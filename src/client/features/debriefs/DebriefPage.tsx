import '@mantine/charts/styles.css';
import { DonutChart } from '@mantine/charts';
import { Alert, Badge, Button, Card, Group, List, Progress, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconCheck, IconFlask, IconMasksTheater, IconMessageCircle, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { DebriefMoment, DebriefView } from '../../../shared/schemas/debriefs';
import { debriefTexts } from '../../../shared/texts';
import { PageFrame } from '../../components/shell/PageFrame';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { browserTimeZone, wallDate, wallTime } from '../meetings/meetingFormat';

const speakerColors = ['teal.6', 'grape.5', 'orange.5', 'cyan.5', 'pink.5', 'lime.6', 'yellow.6', 'gray.5'];

// /debrief?meeting={id}: the numbers of the meeting (who spoke how much as a chart), the agenda's
// coverage, what worked and what to try differently (each at its time, in the user's own words),
// what was rehearsed and done, and 'Rehearse this'.
export function DebriefPage(props: { meetingId: string }) {
  const debrief = useQuery({ ...trpc.debriefs.get.queryOptions({ id: props.meetingId }), retry: false, enabled: Boolean(props.meetingId) });
  const subject = debrief.data?.debrief.subject;
  return (
    <PageFrame title={subject ? `${debriefTexts.chatTitle(subject)}` : debriefTexts.chatTitle('')} subtitle={debriefTexts.privateNote}>
      {debrief.isPending && props.meetingId ? (
        <Skeleton height={240} radius="md" />
      ) : debrief.isError || !debrief.data ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
          {errorMessage(debrief.error, debriefTexts.notFound)}
        </Alert>
      ) : (
        <DebriefBody debrief={debrief.data.debrief} />
      )}
    </PageFrame>
  );
}

function DebriefBody(props: { debrief: DebriefView }) {
  const { debrief } = props;
  const { you, speakers, agenda } = debrief.report;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const rehearse = useMutation(
    trpc.debriefs.rehearse.mutationOptions({
      onSuccess: async ({ chatId }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
        await navigate({ to: '/app', search: { chat: chatId } });
      },
      onError: (error) => notify.error(debriefTexts.rehearseThis, errorMessage(error, debriefTexts.nothingToRehearse)),
    }),
  );
  const donut = [{ name: you.name, value: Math.round(you.talkShare * 100), color: speakerColors[0]! }, ...speakers.map((s, i) => ({ name: s.name, value: Math.round(s.share * 100), color: speakerColors[(i + 1) % speakerColors.length]! }))];
  const weakest = debrief.coach.moments[0];
  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed">
        {wallDate(debrief.start)} · {wallTime(debrief.start)}–{wallTime(debrief.end)}
      </Text>
      {debrief.sample && (
        <Alert color="grape" variant="light" icon={<IconFlask size={18} aria-hidden />}>
          <Text size="sm">{debriefTexts.sampleNote}</Text>
        </Alert>
      )}
      <Card withBorder radius="md" padding="md">
        <Group align="center" gap="xl" wrap="wrap">
          <figure aria-label={debriefTexts.speakersHeading} style={{ margin: 0 }}>
            <DonutChart data={donut} size={170} thickness={26} withTooltip chartLabel={debriefTexts.percent(you.talkShare)} valueFormatter={(v) => `${v}%`} />
            <Text size="xs" c="dimmed" ta="center" mt={4}>
              {debriefTexts.talkShareLabel}
            </Text>
          </figure>
          <Stack gap={6} style={{ flex: '1 1 220px', minWidth: 0 }} aria-label={debriefTexts.speakersHeading}>
            <Title order={2} size="h5">
              {debriefTexts.speakersHeading}
            </Title>
            {donut.map((row) => (
              <div key={row.name}>
                <Group justify="space-between" gap="xs">
                  <Text size="sm" fw={row.name === you.name ? 600 : 400}>
                    {row.name}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {row.value}%
                  </Text>
                </Group>
                <Progress value={row.value} color={row.color} size="sm" aria-label={`${row.name}: ${row.value}%`} />
              </div>
            ))}
          </Stack>
        </Group>
      </Card>
      <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="sm">
        <Stat label={debriefTexts.turnsLabel} value={String(you.turns)} />
        <Stat label={debriefTexts.longestTurnLabel} value={debriefTexts.youSeconds(you.longestTurnSeconds)} />
        <Stat label={debriefTexts.questionsLabel} value={String(you.questionsAsked)} />
        <Stat label={debriefTexts.interruptionsLabel} value={String(you.interruptions)} />
        <Stat label={debriefTexts.fillersLabel} value={String(you.fillerWords.count)} hint={you.fillerWords.examples.map((e) => `“${e}”`).join(', ')} />
        <Stat label={debriefTexts.paceLabel} value={String(you.wordsPerMinute)} />
      </SimpleGrid>
      {agenda && (
        <Card withBorder radius="md" padding="md">
          <Title order={2} size="h5" mb="xs">
            {debriefTexts.agendaHeading}
          </Title>
          <List spacing={4} size="sm" center>
            {agenda.map((a) => (
              <List.Item
                key={a.item}
                icon={
                  <ThemeIcon size={20} radius="xl" color={a.discussed ? 'teal' : 'gray'} variant="light" aria-label={a.discussed ? debriefTexts.discussed : debriefTexts.notDiscussed}>
                    {a.discussed ? <IconCheck size={14} /> : <IconX size={14} />}
                  </ThemeIcon>
                }
              >
                {a.item}
              </List.Item>
            ))}
          </List>
        </Card>
      )}
      {debrief.rehearsed && (
        <Card withBorder radius="md" padding="md">
          <Title order={2} size="h5">
            {debriefTexts.rehearsedHeading(debrief.rehearsed.counterpart)}
          </Title>
          <Text size="sm" mb="xs">
            {debriefTexts.rehearsedShare(debrief.rehearsed.share)}
          </Text>
          <Progress value={debrief.rehearsed.share * 100} color="teal" mb="xs" aria-label={debriefTexts.rehearsedShare(debrief.rehearsed.share)} />
          <List spacing={4} size="sm">
            {debrief.rehearsed.behaviours.map((b) => (
              <List.Item key={b.behaviour} icon={b.done ? <IconCheck size={16} color="var(--mantine-color-teal-6)" /> : <IconX size={16} color="var(--mantine-color-gray-6)" />}>
                {debriefTexts.behaviourLabels[b.behaviour]}
                {b.quote ? ` — “${b.quote}”` : ''}
              </List.Item>
            ))}
          </List>
        </Card>
      )}
      <Moments title={debriefTexts.strengthsHeadingPage} moments={debrief.coach.strengths} color="teal" />
      <Moments title={debriefTexts.momentsHeadingPage} moments={debrief.coach.moments} color="orange" />
      <Group gap="sm">
        {weakest && speakers.length > 0 && (
          <Button leftSection={<IconMasksTheater size={16} aria-hidden />} loading={rehearse.isPending} onClick={() => rehearse.mutate({ id: debrief.meetingId, timeZone: debrief.sample ? browserTimeZone() : undefined })}>
            {debriefTexts.rehearseThis}
          </Button>
        )}
        {debrief.chatId && (
          <Button variant="light" leftSection={<IconMessageCircle size={16} aria-hidden />} onClick={() => void navigate({ to: '/app', search: { chat: debrief.chatId ?? undefined } })}>
            {debriefTexts.openChat}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function Stat(props: { label: string; value: string; hint?: string }) {
  return (
    <Card withBorder radius="md" padding="sm">
      <Text size="xs" c="dimmed">
        {props.label}
      </Text>
      <Text fw={700} size="xl">
        {props.value}
      </Text>
      {props.hint && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {props.hint}
        </Text>
      )}
    </Card>
  );
}

function Moments(props: { title: string; moments: DebriefMoment[]; color: string }) {
  if (!props.moments.length) return null;
  return (
    <section aria-label={props.title}>
      <Title order={2} size="h5" mb="xs">
        {props.title}
      </Title>
      <Stack gap="sm">
        {props.moments.map((m) => (
          <Card key={`${m.kind}-${m.seconds}`} withBorder radius="md" padding="md">
            <Group gap="xs" mb={6}>
              <Badge variant="light" color={props.color}>
                {m.at}
              </Badge>
            </Group>
            <Text size="sm">{m.note}</Text>
            {m.instead && (
              <Text size="sm" mt={4} fw={500}>
                {m.instead}
              </Text>
            )}
          </Card>
        ))}
      </Stack>
    </section>
  );
}

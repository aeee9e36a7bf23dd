import { Alert, Badge, Button, Card, Group, List, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { findFillers } from '../../../shared/rehearsalReport';
import { checkNameValues, type RehearsalCheck, type RehearsalReport } from '../../../shared/schemas/rehearsals';
import { lazy, Suspense } from 'react';
import { rehearsalTexts } from '../../../shared/texts';
import { PageFrame } from '../../components/shell/PageFrame';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { SampleBadge } from '../../components/SampleBadge';

const t = rehearsalTexts;
// 'Try again from here' beside where it went wrong: the chat bar's module, loaded when shown.
const TryAgainButton = lazy(() => import('./RehearsalChatBar').then((module) => ({ default: module.TryAgainButton })));

/** A turn with its filler words marked. */
function Highlighted(props: { text: string }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const filler of findFillers(props.text)) {
    if (filler.start > at) parts.push(props.text.slice(at, filler.start));
    parts.push(
      <mark key={filler.start} data-filler>
        {props.text.slice(filler.start, filler.end)}
      </mark>,
    );
    at = filler.end;
  }
  parts.push(props.text.slice(at));
  return <>{parts}</>;
}

const inTwoWeeks = () => new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);

function Improvement(props: { quote: string; better: string }) {
  const queryClient = useQueryClient();
  const makeGoal = useMutation(
    trpc.goals.create.mutationOptions({
      onSuccess: async () => {
        notify.success(t.goalMade, props.better);
        await queryClient.invalidateQueries({ queryKey: trpc.goals.pathKey() });
      },
      onError: (error) => notify.error(t.saveFailed, errorMessage(error, t.saveFailed)),
    }),
  );
  const remember = useMutation(
    trpc.memories.create.mutationOptions({
      onSuccess: () => notify.success(t.remembered, props.better),
      onError: (error) => notify.error(t.saveFailed, errorMessage(error, t.saveFailed)),
    }),
  );
  return (
    <Card withBorder radius="md" padding="sm" component="li">
      <Text size="sm" c="dimmed">
        “<Highlighted text={props.quote} />”
      </Text>
      <Text size="sm" fw={500}>
        → {props.better}
      </Text>
      <Group gap="xs" mt="xs">
        <Button size="xs" variant="light" loading={makeGoal.isPending} disabled={makeGoal.isSuccess} onClick={() => makeGoal.mutate({ title: props.better.slice(0, 200), framework: 'SMART', dueDate: inTwoWeeks(), keyResults: [] })}>
          {makeGoal.isSuccess ? t.goalMade : t.makeGoal}
        </Button>
        <Button size="xs" variant="default" loading={remember.isPending} disabled={remember.isSuccess} onClick={() => remember.mutate({ text: props.better.slice(0, 500) })}>
          {remember.isSuccess ? t.remembered : t.rememberThis}
        </Button>
      </Group>
    </Card>
  );
}

const statusColor = { passed: 'teal', failed: 'red', not_applicable: 'gray' } as const;

/** The rubric's checks, the verdict naming the check that failed, and where it went wrong with 'Try again from here'. */
function ChecksSection(props: { rehearsalId: number; report: RehearsalReport; userTurnIds: number[] }) {
  const { checks, verdict, wentWrong } = props.report;
  if (!checks || !verdict) return null;
  const detail = (check: RehearsalCheck) => {
    const d = t.checkDetail;
    if (check.name === 'pushbacks' && check.pushbacks) return d.pushbacks(check.acknowledged ?? 0, check.pushbacks);
    if (check.name === 'request' && check.quote) return `${d.owner(check.owner ?? null)} · ${d.date(check.date ?? null)}`;
    if ((check.name === 'judgement' || check.name === 'hedges') && check.words?.length) return d.words(check.words);
    return null;
  };
  // The turn to take again: its message id, or the user's turn of that number in the chat.
  const fromMessageId = wentWrong ? (wentWrong.messageId ?? props.userTurnIds[wentWrong.userTurn - 1] ?? null) : null;
  return (
    <section aria-label={t.checksHeading}>
      <Title order={2} size="h4">
        {t.checksHeading}
      </Title>
      <Text size="sm" fw={600} mt={4} data-verdict={verdict.passed ? 'passed' : verdict.failedCheck}>
        {verdict.passed ? t.verdictPassed : t.verdictFailed(t.checkLabels[verdict.failedCheck!])}
      </Text>
      <Stack gap={6} mt="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {checkNameValues.map((name) => {
          const check = checks[name];
          const more = detail(check);
          return (
            <Card key={name} withBorder radius="md" padding="xs" component="li" aria-label={t.checkLabels[name]}>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge color={statusColor[check.status]} variant="light" style={{ flexShrink: 0 }}>
                  {t.checkStatus[check.status]}
                </Badge>
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500}>
                    {t.checkLabels[name]}
                  </Text>
                  {check.quote && check.status !== 'not_applicable' && (
                    <Text size="sm" c="dimmed">
                      {check.userTurn ? `${t.wentWrongTurn(check.userTurn)}: ` : ''}“{check.quote}”
                    </Text>
                  )}
                  {more && <Text size="xs">{more}</Text>}
                </div>
              </Group>
            </Card>
          );
        })}
      </Stack>
      {wentWrong && (
        <Alert variant="light" color="orange" mt="sm" title={t.wentWrongHeading}>
          <Text size="sm">
            {t.wentWrongTurn(wentWrong.userTurn)} ({t.checkLabels[wentWrong.check]}): “{wentWrong.quote}”
          </Text>
          {fromMessageId !== null && (
            <Group mt="xs">
              <Suspense fallback={null}>
                <TryAgainButton rehearsalId={props.rehearsalId} messageId={fromMessageId} inline />
              </Suspense>
            </Group>
          )}
        </Alert>
      )}
    </section>
  );
}

/** /rehearsals/{id}: the report as a page. */
export function ReportPage(props: { id: number }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const rehearsal = useQuery(trpc.rehearsals.get.queryOptions({ id: props.id }));
  const chatId = rehearsal.data?.chatId;
  const messages = useQuery({ ...trpc.chats.messages.queryOptions({ chatId: chatId ?? 0, limit: 100 }), enabled: chatId !== undefined });
  const feedback = useMutation(
    trpc.rehearsals.feedback.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.rehearsals.pathKey() });
      },
      onError: (error) => notify.error(t.reportFailed, errorMessage(error, t.reportFailed)),
    }),
  );
  const r = rehearsal.data;
  if (!r) {
    return (
      <PageFrame title={t.pageTitle}>
        {rehearsal.isError ? <Alert color="red">{errorMessage(rehearsal.error, t.notFound)}</Alert> : <Skeleton h={200} aria-label="Loading" />}
      </PageFrame>
    );
  }
  const report = r.report;
  const userTurns = (messages.data?.items ?? []).filter((m) => m.role === 'user' && m.content.trim());
  const withFillers = userTurns.filter((m) => findFillers(m.content).length > 0);
  const percent = report ? Math.round(report.talkRatio * 100) : 0;
  return (
    <PageFrame title={t.reportTitle(r.counterpart.name)} subtitle={r.situation}>
      <Stack gap="md" p="md" maw={820}>
        <Group gap="xs">
          {r.sample && (
            <SampleBadge />
          )}
          <Badge variant="light">{t.difficulties[r.difficulty]}</Badge>
          <Button size="xs" variant="light" onClick={() => void navigate({ to: '/app', search: { chat: r.chatId } })}>
            {t.openChat}
          </Button>
          {!report && userTurns.length > 0 && (
            <Button size="xs" onClick={() => feedback.mutate({ id: r.id })} loading={feedback.isPending}>
              {t.getReport}
            </Button>
          )}
        </Group>
        {!report ? (
          <Alert variant="light">{t.noReportYet}</Alert>
        ) : (
          <>
            {report.checks && report.verdict && <ChecksSection rehearsalId={r.id} report={report} userTurnIds={userTurns.map((m) => m.id)} />}
            <section aria-label={t.talkShareLabel}>
              <Title order={2} size="h4">
                {t.talkShareLabel}
              </Title>
              <Progress.Root size={24} mt="xs" aria-label={t.talkShare(percent)}>
                <Progress.Section value={percent} color="blue">
                  <Progress.Label>
                    {t.youLabel} {percent}%
                  </Progress.Label>
                </Progress.Section>
                <Progress.Section value={100 - percent} color="gray">
                  <Progress.Label>
                    {t.themLabel(r.counterpart.name)} {100 - percent}%
                  </Progress.Label>
                </Progress.Section>
              </Progress.Root>
              <Text size="sm" mt="xs">
                {t.talkShare(percent)} {t.longestTurn(report.longestTurnWords)} {t.questions(report.questionsAsked)}
              </Text>
            </section>
            <section aria-label={t.fillerHeading}>
              <Title order={2} size="h4">
                {t.fillerHeading}: {report.fillerWords.count}
              </Title>
              {report.fillerWords.count === 0 ? (
                <Text size="sm">{t.noFillers}</Text>
              ) : (
                <Stack gap={4} mt="xs">
                  {withFillers.map((m) => (
                    <Text key={m.id} size="sm" component="blockquote" style={{ margin: 0, paddingLeft: 12, borderLeft: '3px solid var(--mantine-color-gray-4)' }}>
                      <Highlighted text={m.content} />
                    </Text>
                  ))}
                </Stack>
              )}
            </section>
            {report.judged ? (
              <>
                <section aria-label={t.goalMet[report.judged.goalMet]}>
                  <Title order={2} size="h4">
                    {t.goalMet[report.judged.goalMet]}
                  </Title>
                  <Text size="sm">{report.judged.goalReason}</Text>
                </section>
                {report.judged.strengths.length > 0 && (
                  <section aria-label={t.strengthsHeading}>
                    <Title order={2} size="h4">
                      {t.strengthsHeading}
                    </Title>
                    <List size="sm">
                      {report.judged.strengths.map((s) => (
                        <List.Item key={s}>{s}</List.Item>
                      ))}
                    </List>
                  </section>
                )}
                {report.judged.improvements.length > 0 && (
                  <section aria-label={t.improvementsHeading}>
                    <Title order={2} size="h4">
                      {t.improvementsHeading}
                    </Title>
                    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                      {report.judged.improvements.map((i) => (
                        <Improvement key={i.quote} quote={i.quote} better={i.better} />
                      ))}
                    </Stack>
                  </section>
                )}
              </>
            ) : (
              <Alert variant="light">{t.judgedUnavailable}</Alert>
            )}
          </>
        )}
      </Stack>
    </PageFrame>
  );
}

import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { splitList, type StoredKnowledgeBase } from '../../../shared/schemas/knowledgeBase';
import { knowledgeBaseTexts as texts } from '../../../shared/texts';

// The summary card: what is saved now, and whether the coach uses it.
export function KnowledgeBaseSummary(props: { kb: StoredKnowledgeBase | null }) {
  const { kb } = props;
  const rows: Array<[string, string]> = kb
    ? [
        [texts.fullName, kb.fullName],
        [texts.jobTitle, kb.jobTitle],
        [texts.company, kb.company],
        [texts.department, kb.department],
        [texts.manager, kb.manager],
        [texts.directReports, kb.directReports === null ? '' : String(kb.directReports)],
        [texts.team, splitList(kb.team).length ? texts.summaryTeam(splitList(kb.team).length) : ''],
        [texts.stakeholders, splitList(kb.stakeholders).length ? texts.summaryStakeholders(splitList(kb.stakeholders).length) : ''],
        [texts.emailTone, kb.emailTone ?? ''],
      ]
    : [];
  const filled = rows.filter(([, value]) => value);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="kb-summary-heading">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id="kb-summary-heading">
            {texts.summaryTitle}
          </Title>
          <Badge color={kb?.useKnowledgeBase ? 'teal' : 'gray'} variant="light" style={{ flexShrink: 0, maxWidth: 'none' }}>
            {kb?.useKnowledgeBase ? texts.summaryInUse : texts.summaryNotInUse}
          </Badge>
        </Group>
        {filled.length === 0 ? (
          <Text size="sm" c="dimmed">
            {texts.summaryEmpty}
          </Text>
        ) : (
          <Stack gap={6} component="dl" m={0}>
            {filled.map(([label, value]) => (
              <div key={label}>
                <Text component="dt" size="xs" c="dimmed">
                  {label}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                  {value}
                </Text>
              </div>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

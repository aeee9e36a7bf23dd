import { Alert, Box, Button, Card, Container, Grid, Group, List, Loader, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { IconMailCog } from '@tabler/icons-react';
import { IconShieldLock } from '@tabler/icons-react';
import { IconWand } from '@tabler/icons-react';
import { PageFrame } from '../../components/shell/PageFrame';
import { writingStyleTexts } from '../../../shared/texts';
import { useAnalyzeWritingStyle, useWritingStyle } from './useWritingStyle';
import { WritingStyleProfileCard } from './WritingStyleProfileCard';

const texts = writingStyleTexts;

function ProfileSkeleton() {
  return (
    <Card withBorder radius="md" padding="lg" aria-busy="true" aria-label="Loading writing style profile">
      <Stack gap="md">
        <Skeleton height={22} width="55%" />
        <Skeleton height={12} width="35%" />
        {Array.from({ length: 6 }, (_, i) => (
          <Group key={i} wrap="nowrap" align="flex-start">
            <Skeleton height={28} circle />
            <Stack gap={6} style={{ flex: 1 }}>
              <Skeleton height={14} width="30%" />
              <Skeleton height={12} width="85%" />
            </Stack>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

function NoAnalysisCard(props: { onStart: () => void; running: boolean }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="no-analysis-title">
      <Stack gap="md" align="flex-start">
        <ThemeIcon size={44} radius="xl" variant="light" aria-hidden>
          <IconMailCog size={24} />
        </ThemeIcon>
        <div>
          <Title order={2} size="h4" id="no-analysis-title">
            {texts.noAnalysisTitle}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {texts.noAnalysisBody}
          </Text>
        </div>
        <Alert variant="light" color="blue" title={texts.howItWorksTitle} icon={<IconInfoCircle size={18} />} w="100%">
          {texts.howItWorksBody}
        </Alert>
        <Button onClick={props.onStart} disabled={props.running} leftSection={props.running ? <Loader size={14} color="gray" /> : undefined}>
          {props.running ? texts.analyzing : texts.startAnalysis}
        </Button>
      </Stack>
    </Card>
  );
}

function HowItsUsedCard() {
  return (
    <Card withBorder radius="md" padding="lg" component="aside" aria-labelledby="how-used-title">
      <Stack gap="md">
        <Title order={2} size="h5" id="how-used-title">
          {texts.howItsUsedTitle}
        </Title>
        <List spacing="sm" size="sm" icon={<IconWand size={16} aria-hidden />} center={false}>
          {texts.usedFor.map((item) => (
            <List.Item key={item.title}>
              <Text size="sm" fw={600}>
                {item.title}
              </Text>
              <Text size="sm" c="dimmed">
                {item.body}
              </Text>
            </List.Item>
          ))}
        </List>
        <Alert variant="light" color="teal" icon={<IconShieldLock size={18} />}>
          {texts.securityNotice}
        </Alert>
      </Stack>
    </Card>
  );
}

/** /writing-style-analysis (the product spec's screens). */
export function WritingStyleAnalysisPage() {
  const { loading, writingStyle } = useWritingStyle();
  const { analyze, running } = useAnalyzeWritingStyle();
  const start = () => void analyze('page');
  const headerLabel = running ? texts.analyzingEmails : writingStyle ? texts.refreshAnalysis : texts.analyze;

  return (
    <PageFrame
      title={texts.pageTitle}
      subtitle={texts.pageSubtitle}
      size="lg"
      action={
        // The label itself says what is happening ('Analyzing Emails...'), so no loading overlay hides it.
        <Button onClick={start} disabled={running || loading} leftSection={running ? <Loader size={14} color="gray" /> : <IconMailCog size={16} />}>
          {headerLabel}
        </Button>
      }
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          {loading ? (
            <ProfileSkeleton />
          ) : writingStyle ? (
            <WritingStyleProfileCard style={writingStyle} onRefresh={start} refreshing={running} />
          ) : (
            <NoAnalysisCard onStart={start} running={running} />
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <HowItsUsedCard />
        </Grid.Col>
      </Grid>
    </PageFrame>
  );
}

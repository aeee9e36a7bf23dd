import { AccountRequired } from '../auth/AccountRequired';
import { useSession } from '../auth/useSession';
import { Alert, Box, Button, Card, Code, Container, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconHeadset, IconPhoneCall, IconSettings } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { PageFrame } from '../../components/shell/PageFrame';
import { organisationTexts, phoneTexts } from '../../../shared/texts';
import { trpc } from '../../lib/trpc';
import { VoiceCallDialog } from '../voice/VoiceCallDialog';
import { useVoiceAvailable, VoiceUnavailable } from '../voice/voiceAvailability';
import { PhoneCallDialog } from './PhoneCallDialog';

// /phone-calls (the product spec's screens): receive a call, set up incoming calls, voice chat in browser.
export function PhonePage() {
  const status = useQuery(trpc.twilio.status.queryOptions());
  const [phoneOpen, setPhoneOpen] = useState(false);
  const [voiceOpen, setVoiceOpen] = useState(false);
  const configured = status.data?.configured ?? false;
  // The member's organisation turned phone calls with the coach off.
  const turnedOff = status.data?.turnedOffByOrganisation ?? false;
  const { guest } = useSession();
  const voiceAvailable = useVoiceAvailable();
  const voiceButton = (
    <Button variant="light" onClick={() => setVoiceOpen(true)} disabled={!voiceAvailable}>
      {phoneTexts.browserButton}
    </Button>
  );

  return (
    <PageFrame
      title={phoneTexts.pageTitle}
      subtitle={phoneTexts.pageSubtitle}
      size="lg"
      after={
        <>
          <PhoneCallDialog opened={phoneOpen} onClose={() => setPhoneOpen(false)} />
          <VoiceCallDialog opened={voiceOpen} onClose={() => setVoiceOpen(false)} />
        </>
      }
    >
      {guest && (
        <Box mb="md">
          <AccountRequired what="calls" />
        </Box>
      )}
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <PhoneCard icon={<IconPhoneCall aria-hidden />} title={phoneTexts.receiveTitle}>
          <Text size="sm">{phoneTexts.receiveBody}</Text>
          {status.data && !configured && (
            <Alert color="yellow" title={phoneTexts.notConfiguredTitle}>
              {phoneTexts.notConfigured}
            </Alert>
          )}
          {configured && turnedOff && <Alert color="yellow">{organisationTexts.member.callsTurnedOff}</Alert>}
          <Button onClick={() => setPhoneOpen(true)} disabled={!configured || turnedOff || guest} loading={status.isPending}>
            {phoneTexts.receiveButton}
          </Button>
        </PhoneCard>
        <PhoneCard icon={<IconSettings aria-hidden />} title={phoneTexts.setupTitle}>
          <Text size="sm">{phoneTexts.setupBody}</Text>
          <List size="sm" spacing={6} type="ordered">
            {phoneTexts.setupSteps.map((step) => (
              <List.Item key={step}>{step}</List.Item>
            ))}
          </List>
          <Text size="xs" c="dimmed">
            Webhook: <Code>POST /api/twilio/voice/incoming</Code>
          </Text>
        </PhoneCard>
        <PhoneCard icon={<IconHeadset aria-hidden />} title={phoneTexts.browserTitle}>
          <Text size="sm">{phoneTexts.browserBody}</Text>
          {voiceAvailable ? voiceButton : <VoiceUnavailable block>{voiceButton}</VoiceUnavailable>}
        </PhoneCard>
      </SimpleGrid>
    </PageFrame>
  );
}

function PhoneCard(props: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={props.title}>
      <Stack gap="sm" h="100%">
        <Box c="blue">{props.icon}</Box>
        <Title order={2} size="h4">
          {props.title}
        </Title>
        {props.children}
      </Stack>
    </Card>
  );
}

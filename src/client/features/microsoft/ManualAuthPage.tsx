import { AccountRequired } from '../auth/AccountRequired';
import { useSession } from '../auth/useSession';
import { Alert, Button, Card, Collapse, Group, Stack, Text, Textarea, ThemeIcon, Title } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { IconAlertCircle } from '@tabler/icons-react';
import { IconArrowLeft } from '@tabler/icons-react';
import { IconCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { cleanPastedToken, manualServiceOfName, type MicrosoftServiceName } from '../../../shared/schemas/microsoft';
import { microsoftTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { PageFrame } from '../../components/shell/PageFrame';
import { useConnectDialogs } from './useConnectDialogs';
import { useMicrosoftStatus, useRefreshMicrosoft } from './useMicrosoftStatus';

// /microsoft-manual-auth?service=… (the product spec's screens and states and transitions): the
// sign-in dialogs first when the server has them, and the pasted token as the advanced way (open
// at once when sign-in is not set up, or with ?advanced=true).
export function ManualAuthPage(props: { service: MicrosoftServiceName | undefined; advanced?: boolean }) {
  const serviceLabel = props.service ?? microsoftTexts.genericService;
  const [token, setToken] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [account, setAccount] = useState<string | null>(null);
  const refresh = useRefreshMicrosoft();
  const { data: status } = useMicrosoftStatus();
  const { open, dialogs } = useConnectDialogs();
  const { guest } = useSession();
  const [showToken, setShowToken] = useState(props.advanced === true);
  const submit = useMutation(
    trpc.microsoft.manualToken.mutationOptions({
      onSuccess: (answer) => {
        setAccount(answer.userEmail);
        notify.success(microsoftTexts.authSuccessTitle, microsoftTexts.connectedAs(answer.service, answer.userEmail));
        void refresh();
      },
      onError: (error) => setFailure(errorMessage(error, microsoftTexts.manualFailed)),
    }),
  );
  const empty = cleanPastedToken(token) === '';

  return (
    <PageFrame
      title={microsoftTexts.connectTitle(serviceLabel)}
      before={
        <Button component={Link} to="/" variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />} mb="sm" px={0}>
          {microsoftTexts.backHome}
        </Button>
      }
    >
      {guest ? (
        <AccountRequired what="microsoft" />
      ) : account ? (
        <Card withBorder radius="md" padding="lg">
          <Stack align="center" gap="sm" role="status">
            <ThemeIcon color="teal" size="xl" radius="xl">
              <IconCheck aria-hidden />
            </ThemeIcon>
            <Title order={2} size="h3">
              {microsoftTexts.successTitle}
            </Title>
            <Text>{microsoftTexts.successBody(props.service ?? microsoftTexts.serviceNames.email)}</Text>
            <Text size="sm" c="dimmed">
              {microsoftTexts.account}: <strong>{account}</strong>
            </Text>
            <Button component={Link} to="/app">
              {microsoftTexts.goToDashboard}
            </Button>
          </Stack>
        </Card>
      ) : (
        <Card withBorder radius="md" padding="lg">
          <Stack gap="md">
            {status?.signInConfigured ? (
              <>
                <Text size="sm">{microsoftTexts.signInLead}</Text>
                <Group grow wrap="wrap">
                  <Button onClick={() => open(props.service ?? 'Microsoft Email', 'browser')}>{microsoftTexts.signInWithBrowser}</Button>
                  {status.deviceCodeSignIn && (
                    <Button variant="light" onClick={() => open(props.service ?? 'Microsoft Email', 'device')}>
                      {microsoftTexts.signInWithCode}
                    </Button>
                  )}
                </Group>
                <Button
                  variant="subtle"
                  size="compact-sm"
                  style={{ alignSelf: 'flex-start' }}
                  aria-expanded={showToken}
                  aria-controls="manual-token-form"
                  rightSection={<IconChevronDown size={14} aria-hidden style={{ transform: showToken ? 'rotate(180deg)' : undefined }} />}
                  onClick={() => setShowToken((shown) => !shown)}
                >
                  {microsoftTexts.advancedToken}
                </Button>
              </>
            ) : (
              status && <Text size="sm">{microsoftTexts.signInNotSetUp}</Text>
            )}
            <Collapse expanded={showToken || (status !== undefined && !status.signInConfigured)} id="manual-token-form">
            <form
              onSubmit={(event) => {
                event.preventDefault();
                setFailure(null);
                if (empty) return setFailure(microsoftTexts.invalidToken);
                submit.mutate({ token: cleanPastedToken(token), service: manualServiceOfName(props.service ?? 'Microsoft Email') as 'microsoft_email' });
              }}
            >
              <Stack gap="sm">
                <Text size="sm">{microsoftTexts.connectDescription}</Text>
                <Textarea
                  label={microsoftTexts.tokenLabel}
                  placeholder={microsoftTexts.tokenPlaceholder}
                  required
                  autosize
                  minRows={4}
                  styles={{ input: { minHeight: 100, fontFamily: 'monospace' } }}
                  value={token}
                  onChange={(event) => setToken(event.currentTarget.value)}
                />
                {failure && (
                  <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert" title={microsoftTexts.manualFailed}>
                    {failure}
                  </Alert>
                )}
                <Button type="submit" disabled={empty} loading={submit.isPending}>
                  {microsoftTexts.connectWithToken}
                </Button>
              </Stack>
            </form>
            </Collapse>
          </Stack>
        </Card>
      )}
      {dialogs}
    </PageFrame>
  );
}

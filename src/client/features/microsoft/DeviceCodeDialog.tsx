import { Anchor, Button, Code, CopyButton, Group, Loader, Modal, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { IconCheck } from '@tabler/icons-react';
import { IconClockX } from '@tabler/icons-react';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { serviceKeyOfName, type MicrosoftServiceName } from '../../../shared/schemas/microsoft';
import { microsoftTexts } from '../../../shared/texts';
import { errorMessage, errorStatus } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpcClient } from '../../lib/trpc';
import { writeConnectionFlags } from './connectionFlags';

type DeviceCode = { userCode: string; verificationUrl: string; expiresIn: number; interval: number; deviceCodeInfo: string };
type Phase = 'idle' | 'polling' | 'success' | 'expired' | 'error';

const defaultIntervalSeconds = 5;
const successCloseMs = 2000;

export const formatCountdown = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.max(0, seconds) % 60).padStart(2, '0')}`;

// The product spec's states and transitions, device-code flow: idle, polling, success, expired, error. Opening requests a
// code; the countdown (m:ss with a progress bar) reaching 0 or an expired poll moves to expired;
// success closes after 2 s; an error reply or a failed poll moves to error; Try Again restarts.
export function DeviceCodeDialog(props: { service: MicrosoftServiceName; opened: boolean; onClose: () => void; onSuccess: () => void }) {
  const [phase, setPhase] = useState<Phase>('idle');
  const [code, setCode] = useState<DeviceCode | null>(null);
  const [remaining, setRemaining] = useState(0);
  const [attempt, setAttempt] = useState(0);
  const phaseRef = useRef<Phase>('idle');
  const { opened, onClose, onSuccess, service } = props;
  const move = useCallback((next: Phase) => {
    phaseRef.current = next;
    setPhase(next);
  }, []);

  // Request a code each time the dialog opens (or Try Again is pressed).
  useEffect(() => {
    if (!opened) return;
    let cancelled = false;
    move('idle');
    setCode(null);
    trpcClient.microsoft.startDeviceCode
      .mutate({ service })
      .then((started) => {
        if (cancelled) return;
        setCode(started);
        setRemaining(started.expiresIn);
        move('polling');
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        const status = errorStatus(error);
        notify.error(
          microsoftTexts.deviceStartErrorTitle,
          status ? microsoftTexts.deviceStartError(status, errorMessage(error, '')) : microsoftTexts.deviceStartFallback,
        );
        move('error');
      });
    return () => {
      cancelled = true;
    };
  }, [opened, attempt, service, move]);

  // The countdown, each second, while the dialog is open.
  useEffect(() => {
    if (!opened || phase !== 'polling' || !code) return;
    const started = Date.now();
    const initial = remaining;
    const timer = setInterval(() => {
      const left = Math.max(0, initial - Math.floor((Date.now() - started) / 1000));
      setRemaining(left);
      if (left === 0) move('expired');
    }, 1000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, phase, code]);

  // Polling every interval seconds (else 5 s), one request at a time; closing the dialog stops it.
  useEffect(() => {
    if (!opened || phase !== 'polling' || !code) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const schedule = (seconds: number) => {
      timer = setTimeout(poll, seconds * 1000);
    };
    const poll = async () => {
      if (stopped || phaseRef.current !== 'polling') return;
      try {
        const answer = await trpcClient.microsoft.pollDeviceCode.mutate({ deviceCodeInfo: code.deviceCodeInfo });
        if (stopped || phaseRef.current !== 'polling') return;
        if ('success' in answer && answer.success) {
          move('success');
          writeConnectionFlags(serviceKeyOfName(answer.service), answer.service, answer.userEmail);
          return;
        }
        if ('expired' in answer && answer.expired) return move('expired');
        if ('error' in answer && answer.error) {
          notify.error(microsoftTexts.errorScreenTitle, answer.message || microsoftTexts.pollErrorFallback);
          return move('error');
        }
        schedule(('interval' in answer && answer.interval) || code.interval || defaultIntervalSeconds);
      } catch (error) {
        if (stopped) return;
        notify.error(microsoftTexts.errorScreenTitle, errorMessage(error, microsoftTexts.pollErrorFallback));
        move('error');
      }
    };
    schedule(code.interval || defaultIntervalSeconds);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, phase, code]);

  // Success closes the dialog 2 s later, unless it was closed (or reopened) meanwhile.
  const onDone = useRef({ onSuccess, onClose });
  onDone.current = { onSuccess, onClose };
  useEffect(() => {
    if (!opened || phase !== 'success') return;
    const timer = setTimeout(() => {
      onDone.current.onSuccess();
      onDone.current.onClose();
    }, successCloseMs);
    return () => clearTimeout(timer);
  }, [opened, phase]);

  const retry = () => setAttempt((n) => n + 1);

  return (
    <Modal opened={opened} onClose={onClose} title={microsoftTexts.deviceDialogTitle(service)} centered>
      {phase === 'idle' && (
        <Group gap="sm" py="md" justify="center" role="status">
          <Loader size="sm" aria-hidden />
          <Text size="sm">{microsoftTexts.deviceRequesting}</Text>
        </Group>
      )}
      {phase === 'polling' && code && (
        <Stack gap="md">
          <Text size="sm">{microsoftTexts.deviceInstructions}</Text>
          <Group justify="center" gap="sm">
            <Code fz="xl" fw={700} px="md" py="xs" aria-label="Sign-in code">
              {code.userCode}
            </Code>
            <CopyButton value={code.userCode}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : microsoftTexts.copyCode}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Anchor href={code.verificationUrl} target="_blank" rel="noopener noreferrer" ta="center">
            {microsoftTexts.openVerification}: {code.verificationUrl}
          </Anchor>
          <div>
            <Group justify="space-between" mb={4}>
              <Text size="xs" c="dimmed">
                {microsoftTexts.expiresIn}
              </Text>
              <Text size="xs" fw={600} aria-label="Time left">
                {formatCountdown(remaining)}
              </Text>
            </Group>
            <Progress value={(remaining / code.expiresIn) * 100} aria-label="Time left for the code" />
          </div>
          <Group gap="xs" justify="center" c="dimmed">
            <Loader size="xs" aria-hidden />
            <Text size="sm">{microsoftTexts.waitingForSignIn}</Text>
          </Group>
        </Stack>
      )}
      {phase === 'success' && (
        <Stack align="center" gap="xs" py="md" role="status">
          <ThemeIcon color="teal" size="xl" radius="xl">
            <IconCheck aria-hidden />
          </ThemeIcon>
          <Text fw={600}>{microsoftTexts.deviceSuccess}</Text>
        </Stack>
      )}
      {phase === 'expired' && (
        <RetryPanel color="orange" icon={<IconClockX aria-hidden />} title={microsoftTexts.expiredTitle} body={microsoftTexts.expiredBody} onRetry={retry} />
      )}
      {phase === 'error' && (
        <RetryPanel color="red" icon={<IconAlertCircle aria-hidden />} title={microsoftTexts.errorScreenTitle} body={microsoftTexts.errorScreenBody} onRetry={retry} />
      )}
    </Modal>
  );
}

/** Expired or failed: what happened, and Try Again (the product spec's states and transitions). */
function RetryPanel(props: { color: string; icon: ReactNode; title: string; body: string; onRetry: () => void }) {
  return (
    <Stack align="center" gap="sm" py="sm">
      <ThemeIcon color={props.color} size="xl" radius="xl">
        {props.icon}
      </ThemeIcon>
      <Title order={3} size="h4">
        {props.title}
      </Title>
      <Text size="sm" ta="center">
        {props.body}
      </Text>
      <Button onClick={props.onRetry}>{microsoftTexts.tryAgain}</Button>
    </Stack>
  );
}

import { AccountRequired } from '../auth/AccountRequired';
import { useSession } from '../auth/useSession';
import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconPhone, IconPhoneOff } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { phoneCallSchema } from '../../../shared/schemas/twilio';
import { phoneTexts, phoneVerificationTexts } from '../../../shared/texts';
import { errorMessage, errorStatus } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

// The product spec's screens and states and transitions, the telephony dialog: phone entry, then calling (End Call), then ended
// (New Call returns to the entry). Ending makes no server call.
type Stage = 'entry' | 'calling' | 'ended';

export function PhoneCallDialog(props: { opened: boolean; onClose: () => void }) {
  const [stage, setStage] = useState<Stage>('entry');
  const [phoneNumber, setPhoneNumber] = useState('');
  const [error, setError] = useState<string | null>(null);
  // 403: the coach calls only the account's verified number; Settings verifies it.
  const [mustVerify, setMustVerify] = useState<string | null>(null);
  const call = useMutation(trpc.twilio.placeCall.mutationOptions());
  const { guest } = useSession();

  const submit = () => {
    if (!phoneNumber.trim()) {
      setError(phoneTexts.numberRequired);
      notify.error(phoneTexts.numberRequiredTitle, phoneTexts.numberRequired);
      return;
    }
    const parsed = phoneCallSchema.safeParse({ phoneNumber });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? phoneTexts.invalidNumber);
    setError(null);
    setMustVerify(null);
    call.mutate(
      { phoneNumber },
      {
        onSuccess: () => {
          setStage('calling');
          notify.success(phoneTexts.callInitiatedTitle, phoneTexts.callInitiated);
        },
        onError: (failure) => {
          const status = errorStatus(failure);
          if (status === 403) return setMustVerify(errorMessage(failure, phoneVerificationTexts.mustVerify));
          notify.error(phoneTexts.callFailedTitle, status === undefined ? phoneTexts.callFailedGeneric : errorMessage(failure, phoneTexts.callFailed));
        },
      },
    );
  };

  const close = () => {
    props.onClose();
    setStage('entry');
    setError(null);
    setMustVerify(null);
  };

  return (
    <Modal opened={props.opened} onClose={close} title={phoneTexts.dialogTitle} centered>
      {guest && <AccountRequired what="calls" compact />}
      {stage === 'entry' && !guest && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack>
            <Text size="sm" c="dimmed">
              {phoneTexts.dialogDescription}
            </Text>
            <TextInput
              label={phoneTexts.numberLabel}
              placeholder={phoneTexts.numberPlaceholder}
              description={phoneTexts.numberHint}
              type="tel"
              autoComplete="tel"
              data-autofocus
              value={phoneNumber}
              onChange={(event) => setPhoneNumber(event.currentTarget.value)}
              error={error}
            />
            {mustVerify && (
              <Alert color="yellow" role="alert">
                <Stack gap={4}>
                  <Text size="sm">{mustVerify}</Text>
                  <Anchor component={Link} to="/settings" size="sm" onClick={close}>
                    {phoneVerificationTexts.verifyInSettings}
                  </Anchor>
                </Stack>
              </Alert>
            )}
            <Button type="submit" leftSection={<IconPhone size={16} />} loading={call.isPending}>
              {phoneTexts.call}
            </Button>
          </Stack>
        </form>
      )}
      {stage === 'calling' && (
        <Stack align="center">
          <Text fw={600} aria-live="polite">
            {phoneTexts.calling}
          </Text>
          <Text size="sm" c="dimmed" ta="center">
            {phoneTexts.callingBody(phoneNumber)}
          </Text>
          <Button
            color="red"
            leftSection={<IconPhoneOff size={16} />}
            onClick={() => {
              setStage('ended');
              notify.info(phoneTexts.callEndedTitle);
            }}
          >
            {phoneTexts.endCall}
          </Button>
        </Stack>
      )}
      {stage === 'ended' && (
        <Stack align="center">
          <Text fw={600}>{phoneTexts.callEndedTitle}</Text>
          <Text size="sm" c="dimmed">
            {phoneTexts.endedBody}
          </Text>
          <Group>
            <Button onClick={() => setStage('entry')}>{phoneTexts.newCall}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

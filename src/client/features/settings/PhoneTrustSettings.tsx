import { Alert, Badge, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { phoneVerificationTexts as texts, settingsTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { SettingsSection } from './SettingsSection';

// The profile phone is verified by a texted code before the coach calls or trusts it,
// and the phone PIN identifies a caller whose caller ID cannot be trusted.
export function PhoneTrustSettings(props: { phone: string | null; trust: { verified: boolean; pinSet: boolean } }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries(trpc.profile.get.queryFilter());
  const [number, setNumber] = useState(props.phone ?? '');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const start = useMutation(trpc.phone.startVerification.mutationOptions());
  const confirm = useMutation(trpc.phone.confirmVerification.mutationOptions());
  const setPinMutation = useMutation(trpc.phone.setPin.mutationOptions());
  const removePin = useMutation(trpc.phone.removePin.mutationOptions());

  const send = async () => {
    setError(null);
    try {
      const sent = await start.mutateAsync({ phoneNumber: number });
      setSentTo(sent.phoneNumber);
      setCode('');
    } catch (failure) {
      setError(errorMessage(failure, texts.smsFailed));
    }
  };
  const verify = async () => {
    setError(null);
    try {
      await confirm.mutateAsync({ code });
      setSentTo(null);
      setCode('');
      notify.success(texts.verifiedToast);
      await refresh();
    } catch (failure) {
      setError(errorMessage(failure, texts.codeInvalid));
    }
  };
  const savePin = async () => {
    setPinError(null);
    try {
      await setPinMutation.mutateAsync({ pin });
      setPin('');
      notify.success(texts.pinSaved);
      await refresh();
    } catch (failure) {
      setPinError(errorMessage(failure, texts.pinInvalid));
    }
  };
  const dropPin = async () => {
    setPinError(null);
    try {
      await removePin.mutateAsync();
      notify.success(texts.pinRemoved);
      await refresh();
    } catch (failure) {
      setPinError(errorMessage(failure, texts.pinInvalid));
    }
  };

  const verified = props.trust.verified && props.phone !== null && number.replace(/[\s().-]/g, '') === props.phone;
  return (
    <SettingsSection heading={texts.verifyTitle} description={settingsTexts.phoneDescription}>
      <Stack gap="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={texts.numberToVerify}
            type="tel"
            autoComplete="tel"
            placeholder="+15551234567"
            value={number}
            onChange={(event) => setNumber(event.currentTarget.value)}
            style={{ flex: '1 1 14rem' }}
            rightSectionWidth={110}
            rightSection={
              props.phone ? (
                <Badge color={verified ? 'teal' : 'gray'} variant="light" aria-label={verified ? texts.verified : texts.notVerified}>
                  {verified ? texts.verified : texts.notVerified}
                </Badge>
              ) : null
            }
          />
          {!verified && (
            <Button onClick={send} loading={start.isPending} disabled={!number.trim()}>
              {sentTo ? texts.resend : texts.verify}
            </Button>
          )}
        </Group>
        {sentTo && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void verify();
            }}
          >
            <Stack gap="xs">
              <Text size="sm">{texts.codeSent(sentTo)}</Text>
              <Group align="flex-end" gap="sm" wrap="wrap">
                <TextInput
                  label={texts.codeLabel}
                  placeholder={texts.codePlaceholder}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  value={code}
                  onChange={(event) => setCode(event.currentTarget.value)}
                  style={{ flex: '0 1 10rem' }}
                />
                <Button type="submit" loading={confirm.isPending}>
                  {texts.confirm}
                </Button>
                <Button variant="subtle" onClick={() => setSentTo(null)}>
                  {texts.cancel}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}

        <div>
          <Group gap="sm">
            <Title order={3} size="h5">
              {texts.pinTitle}
            </Title>
            <Badge color={props.trust.pinSet ? 'teal' : 'gray'} variant="light">
              {props.trust.pinSet ? texts.pinSet : texts.pinNotSet}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed" mt={4}>
            {texts.pinDescription}
          </Text>
        </div>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void savePin();
          }}
        >
          <Group align="flex-end" gap="sm" wrap="wrap">
            <PasswordInput
              label={texts.pinLabel}
              inputMode="numeric"
              autoComplete="new-password"
              maxLength={4}
              value={pin}
              onChange={(event) => setPin(event.currentTarget.value)}
              error={pinError}
              style={{ flex: '0 1 10rem' }}
            />
            <Button type="submit" loading={setPinMutation.isPending} disabled={!pin}>
              {props.trust.pinSet ? texts.pinChange : texts.pinSave}
            </Button>
            {props.trust.pinSet && (
              <Button variant="light" color="red" onClick={dropPin} loading={removePin.isPending}>
                {texts.pinRemove}
              </Button>
            )}
          </Group>
        </form>
      </Stack>
    </SettingsSection>
  );
}

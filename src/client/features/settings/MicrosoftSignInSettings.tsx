import { Alert, Box, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { microsoftSignInTexts, type MicrosoftSignInErrorCode } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { SettingsSection } from './SettingsSection';

// Settings, Profile: the ways this account signs in. Link a Microsoft account (a full navigation:
// the server redirects to Microsoft and back here), unlink it (a password is needed first), and
// set or change the password (an account made by 'Sign in with Microsoft' starts without one).
export function MicrosoftSignInSettings(props: { linked?: boolean; error?: MicrosoftSignInErrorCode; onShown: () => void }) {
  const queryClient = useQueryClient();
  const status = useQuery(trpc.auth.microsoftLink.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.auth.microsoftLink.queryKey() });
  const { linked, error, onShown } = props;
  // The outcome of a link that came back from Microsoft, told once.
  useEffect(() => {
    if (linked) notify.success(microsoftSignInTexts.linkedTitle);
    if (error) notify.error(microsoftSignInTexts.sectionTitle, microsoftSignInTexts.errors[error]);
    if (linked || error) onShown();
  }, [linked, error, onShown]);
  const unlink = useMutation(
    trpc.auth.unlinkMicrosoft.mutationOptions({
      onSuccess: () => notify.success(microsoftSignInTexts.unlinkedTitle),
      onError: (failure) => notify.error(microsoftSignInTexts.sectionTitle, errorMessage(failure, microsoftSignInTexts.unlinkNeedsPassword)),
      onSettled: refresh,
    }),
  );
  const data = status.data;
  if (!data || (!data.configured && !data.linked)) return null;
  return (
    <Box mt="lg">
      <SettingsSection heading={microsoftSignInTexts.sectionTitle} description={data.linked && data.username ? microsoftSignInTexts.linkedAs(data.username) : microsoftSignInTexts.notLinked}>
        <Group>
          {data.linked ? (
            <Button variant="default" color="red" loading={unlink.isPending} onClick={() => unlink.mutate()}>
              {microsoftSignInTexts.unlinkButton}
            </Button>
          ) : (
            <Button component="a" href="/api/auth/microsoft/link" variant="default">
              {microsoftSignInTexts.linkButton}
            </Button>
          )}
        </Group>
        {data.passwordLogin && <PasswordForm hasPassword={data.hasPassword} onSaved={refresh} />}
      </SettingsSection>
    </Box>
  );
}

function PasswordForm(props: { hasPassword: boolean; onSaved: () => void }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const save = useMutation(
    trpc.auth.setPassword.mutationOptions({
      onSuccess: () => {
        notify.success(microsoftSignInTexts.passwordSaved);
        setCurrentPassword('');
        setNewPassword('');
        props.onSaved();
      },
    }),
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate({ newPassword, ...(props.hasPassword ? { currentPassword } : {}) });
  };
  return (
    <form onSubmit={submit} aria-label={microsoftSignInTexts.passwordTitle}>
      <Stack gap="sm">
        <Text size="sm" fw={500}>
          {microsoftSignInTexts.passwordTitle}
        </Text>
        {!props.hasPassword && (
          <Text size="sm" c="dimmed">
            {microsoftSignInTexts.passwordNone}
          </Text>
        )}
        {props.hasPassword && (
          <PasswordInput label={microsoftSignInTexts.currentPassword} autoComplete="current-password" value={currentPassword} onChange={(e) => setCurrentPassword(e.currentTarget.value)} required />
        )}
        <PasswordInput label={microsoftSignInTexts.newPassword} autoComplete="new-password" value={newPassword} onChange={(e) => setNewPassword(e.currentTarget.value)} required minLength={6} />
        {save.isError && <Alert color="red">{errorMessage(save.error, microsoftSignInTexts.currentPasswordWrong)}</Alert>}
        <Group justify="flex-end">
          <Button type="submit" variant="default" loading={save.isPending}>
            {props.hasPassword ? microsoftSignInTexts.passwordChange : microsoftSignInTexts.passwordSet}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

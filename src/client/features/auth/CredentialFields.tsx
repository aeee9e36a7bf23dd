import { PasswordInput, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';

type CredentialsForm = {
  key: (path: 'username' | 'password') => string;
  getInputProps: (path: 'username' | 'password') => GetInputPropsReturnType;
};

// Username and Password, as every auth form asks for them (login, sign-up, /login).
// focus: 'trap' marks the field a dialog's focus trap starts on; 'mount' focuses it on a page.
export function CredentialFields(props: { form: CredentialsForm; newPassword?: boolean; focus?: 'trap' | 'mount' }) {
  const { form } = props;
  return (
    <>
      <TextInput
        label="Username"
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        data-autofocus={props.focus === 'trap' || undefined}
        autoFocus={props.focus === 'mount'}
        key={form.key('username')}
        {...form.getInputProps('username')}
      />
      <PasswordInput
        label="Password"
        name="password"
        autoComplete={props.newPassword ? 'new-password' : 'current-password'}
        required
        key={form.key('password')}
        {...form.getInputProps('password')}
      />
    </>
  );
}

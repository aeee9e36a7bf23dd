import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { loginSchema } from '../../../shared/schemas/auth';
import { authTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { afterSessionChange, trpc } from '../../lib/trpc';
import { loginFailure } from './authFailure';
import { CredentialFields } from './CredentialFields';
import { FormError } from './FormError';

export type SignedInUser = { fullName: string };

// The auth dialog's Login tab (and the sign-in panel's): the product spec's validation rules and error catalogue.
export function LoginForm(props: { onSignedIn: (user: SignedInUser) => void | Promise<void>; autoFocus?: boolean }) {
  const [formMessage, setFormMessage] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { username: '', password: '' },
    validate: zod4Resolver(loginSchema, { errorPriority: 'first' }),
  });
  const login = useMutation(trpc.auth.login.mutationOptions());

  const submit = form.onSubmit(async (values) => {
    setFormMessage(null);
    let user: SignedInUser;
    try {
      ({ user } = await login.mutateAsync(values));
    } catch (error) {
      const failure = loginFailure(error);
      form.setErrors(failure.fieldErrors);
      setFormMessage(failure.formMessage);
      notify.error(authTexts.loginFailedTitle, failure.toastBody);
      return;
    }
    notify.success(authTexts.loggedInTitle, authTexts.loggedInBody(user.fullName));
    await afterSessionChange();
    await props.onSignedIn(user);
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <CredentialFields form={form} focus={props.autoFocus ? 'trap' : undefined} />
        <FormError message={formMessage} />
        <Button type="submit" fullWidth loading={form.submitting} mt="xs">
          Log in
        </Button>
      </Stack>
    </form>
  );
}

import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useRef, useState } from 'react';
import { standaloneLoginSchema } from '../../../shared/schemas/auth';
import { authTexts } from '../../../shared/texts';
import { errorMessage, errorStatus, fieldErrorsOf } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { afterSessionChange, trpc } from '../../lib/trpc';
import { CredentialFields } from './CredentialFields';
import { FormError } from './FormError';
import { useAdoptTypedValues } from './useAdoptTypedValues';

// The Account Login tab of /login: both fields required; on success go to / (the product spec's screens).
export function AccountLoginForm() {
  const navigate = useNavigate();
  const [formMessage, setFormMessage] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { username: '', password: '' },
    validate: zod4Resolver(standaloneLoginSchema, { errorPriority: 'first' }),
  });
  const formRef = useRef<HTMLFormElement>(null);
  useAdoptTypedValues(form, formRef);
  const login = useMutation(trpc.auth.login.mutationOptions());

  const submit = form.onSubmit(async (values) => {
    setFormMessage(null);
    let fullName: string;
    try {
      ({ user: { fullName } } = await login.mutateAsync(values));
    } catch (error) {
      const status = errorStatus(error);
      const fieldErrors = status === 400 ? fieldErrorsOf(error) : {};
      form.setErrors(fieldErrors);
      if (status === 401) setFormMessage(authTexts.standaloneLoginFailed);
      // Too many attempts: the server's message says how long to wait.
      else if (status === 429) setFormMessage(errorMessage(error, authTexts.standaloneLoginError));
      else if (!Object.keys(fieldErrors).length) setFormMessage(authTexts.standaloneLoginError);
      return;
    }
    notify.success(authTexts.loggedInTitle, authTexts.loggedInBody(fullName));
    await afterSessionChange();
    await navigate({ to: '/' });
  });

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Stack gap="sm">
        <CredentialFields form={form} focus="mount" />
        <FormError message={formMessage} />
        <Button type="submit" fullWidth loading={form.submitting} mt="xs">
          Log in
        </Button>
      </Stack>
    </form>
  );
}

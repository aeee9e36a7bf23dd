import { Button, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { registerSchema, type RegisterInput } from '../../../shared/schemas/auth';
import { authTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { afterSessionChange, trpc } from '../../lib/trpc';
import { registerFailure } from './authFailure';
import { useSession } from './useSession';
import { CredentialFields } from './CredentialFields';
import { FormError } from './FormError';
import type { SignedInUser } from './LoginForm';

type RegisterValues = { [K in keyof Required<RegisterInput>]: string };

// The auth dialog's Create Account tab (and the sign-in panel's): the product spec's entities, validation rules and error catalogue.
export function RegisterForm(props: { onSignedIn: (user: SignedInUser) => void | Promise<void>; autoFocus?: boolean }) {
  const [formMessage, setFormMessage] = useState<string | null>(null);
  const form = useForm<RegisterValues>({
    mode: 'uncontrolled',
    initialValues: { username: '', password: '', fullName: '', jobTitle: '', company: '' },
    validate: zod4Resolver(registerSchema, { errorPriority: 'first' }),
  });
  const register = useMutation(trpc.auth.register.mutationOptions());
  const { guest } = useSession();

  const submit = form.onSubmit(async (values) => {
    setFormMessage(null);
    let user: SignedInUser;
    try {
      ({ user } = await register.mutateAsync(values));
    } catch (error) {
      const failure = registerFailure(error);
      form.setErrors(failure.fieldErrors);
      setFormMessage(failure.formMessage);
      notify.error(authTexts.registrationFailedTitle, failure.toastBody);
      return;
    }
    notify.success(authTexts.registeredTitle, guest ? authTexts.registeredFromGuestBody(user.fullName) : authTexts.registeredBody(user.fullName));
    await afterSessionChange();
    await props.onSignedIn(user);
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <CredentialFields form={form} focus={props.autoFocus ? 'trap' : undefined} newPassword />
        <TextInput
          label="Full name"
          autoComplete="name"
          required
          key={form.key('fullName')}
          {...form.getInputProps('fullName')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Job title"
            description="Optional"
            autoComplete="organization-title"
            key={form.key('jobTitle')}
            {...form.getInputProps('jobTitle')}
          />
          <TextInput
            label="Company"
            description="Optional"
            autoComplete="organization"
            key={form.key('company')}
            {...form.getInputProps('company')}
          />
        </SimpleGrid>
        <FormError message={formMessage} />
        <Button type="submit" fullWidth loading={form.submitting} mt="xs">
          Create account
        </Button>
      </Stack>
    </form>
  );
}

import { Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate } from '@tanstack/react-router';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { accessKeySchema } from '../../../shared/schemas/auth';
import { authTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { afterSessionChange } from '../../lib/trpc';
import { checkAccessKey } from './accessKey';
import { FormError } from './FormError';

// The Access Key tab of /login: a private key gate into /app (the product spec's screens and REST calls).
export function AccessKeyForm() {
  const navigate = useNavigate();
  const [formMessage, setFormMessage] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { accessKey: '' },
    validate: zod4Resolver(accessKeySchema, { errorPriority: 'first' }),
  });

  const submit = form.onSubmit(async ({ accessKey }) => {
    setFormMessage(null);
    const result = await checkAccessKey(accessKey.trim());
    if (!result.granted) {
      setFormMessage(result.message);
      return;
    }
    notify.success(authTexts.accessGrantedTitle);
    await afterSessionChange();
    await navigate({ to: '/app' });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Have a private access key? Enter it to go straight to the app.
        </Text>
        <PasswordInput
          label="Access key"
          autoComplete="off"
          required
          key={form.key('accessKey')}
          {...form.getInputProps('accessKey')}
        />
        <FormError message={formMessage} />
        <Button type="submit" fullWidth loading={form.submitting} mt="xs">
          Continue with access key
        </Button>
      </Stack>
    </form>
  );
}

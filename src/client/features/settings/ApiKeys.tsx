import { AccountRequired } from '../auth/AccountRequired';
import { useSession } from '../auth/useSession';
import { Alert, Box, Button, Checkbox, Code, CopyButton, Group, Loader, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { apiKeyScopes, createApiKeySchema, defaultApiKeyScopes, type CreateApiKeyInput } from '../../../shared/schemas/apiKeys';
import { apiKeyTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { ago } from '../../lib/relativeTime';
import { trpc } from '../../lib/trpc';
import { SettingsSection } from './SettingsSection';

// Settings › API keys: create a key with a name and what it may do (its scopes; shown
// once, with Copy), the list with name, prefix, scopes, created and last used, and Revoke. Only a signed-in session manages keys.
export function ApiKeys() {
  const { guest } = useSession();
  if (guest) {
    return (
      <Box mt="lg">
        <SettingsSection heading={apiKeyTexts.heading} description={apiKeyTexts.description}>
          <AccountRequired what="apiKeys" />
        </SettingsSection>
      </Box>
    );
  }
  return <AccountApiKeys />;
}

function AccountApiKeys() {
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKeys.list.queryOptions(undefined, { retry: false }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const form = useForm<CreateApiKeyInput>({ mode: 'uncontrolled', initialValues: { name: '', scopes: [...defaultApiKeyScopes] }, validate: zod4Resolver(createApiKeySchema) });
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: (key) => {
        form.reset();
        setCreated({ name: key.name, key: key.key });
      },
      onError: (error) => notify.error(apiKeyTexts.createFailed, errorMessage(error, apiKeyTexts.loadFailed)),
      onSettled: refresh,
    }),
  );
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: () => notify.success(apiKeyTexts.revoked),
      onError: (error) => notify.error(errorMessage(error, apiKeyTexts.notFound)),
      onSettled: refresh,
    }),
  );

  // A demo visitor without a session of their own cannot hold keys: the section stays away.
  if (keys.isError && (keys.error as { data?: { httpStatus?: number } }).data?.httpStatus === 401) return null;
  const list = keys.data?.keys ?? [];

  return (
    <Box mt="lg">
      <SettingsSection heading={apiKeyTexts.heading} description={apiKeyTexts.description}>
        <form onSubmit={form.onSubmit((values) => create.mutate(values))}>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label={apiKeyTexts.nameLabel}
              placeholder={apiKeyTexts.namePlaceholder}
              maxLength={60}
              style={{ flex: '1 1 220px' }}
              key={form.key('name')}
              {...form.getInputProps('name')}
            />
            <NumberInput
              label={apiKeyTexts.expiresLabel}
              placeholder={apiKeyTexts.expiresPlaceholder}
              min={1}
              max={365}
              allowDecimal={false}
              allowNegative={false}
              style={{ flex: '0 1 160px' }}
              key={form.key('expiresInDays')}
              {...form.getInputProps('expiresInDays')}
              onChange={(value) => form.setFieldValue('expiresInDays', typeof value === 'number' ? value : undefined)}
            />
            <Button type="submit" mt={{ base: 0, xs: 25 }} loading={create.isPending} leftSection={<IconKey size={16} aria-hidden />}>
              {apiKeyTexts.create}
            </Button>
          </Group>
          <Checkbox.Group
            mt="sm"
            label={apiKeyTexts.scopesLabel}
            description={apiKeyTexts.scopesDescription}
            key={form.key('scopes')}
            {...form.getInputProps('scopes')}
          >
            <Stack gap={6} mt={6}>
              {apiKeyScopes.map((scope) => (
                <Checkbox key={scope} value={scope} label={apiKeyTexts.scopeNames[scope]} />
              ))}
            </Stack>
          </Checkbox.Group>
        </form>
        {keys.isPending && <Loader size="sm" aria-label={apiKeyTexts.heading} />}
        {keys.isError && <Alert color="red">{apiKeyTexts.loadFailed}</Alert>}
        {keys.data && list.length === 0 && (
          <Text size="sm" c="dimmed">
            {apiKeyTexts.none}
          </Text>
        )}
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={apiKeyTexts.heading}>
          {list.map((key) => (
            <Group key={key.id} component="li" justify="space-between" wrap="nowrap" gap="sm" aria-label={key.name}>
              <div style={{ minWidth: 0 }}>
                <Group gap={8} wrap="nowrap">
                  <Text size="sm" fw={500} truncate>
                    {key.name}
                  </Text>
                  <Code>{key.prefix}…</Code>
                </Group>
                <Text size="xs">{apiKeyTexts.scopesOf(key.scopes.join(', '))}</Text>
                <Text size="xs" c="dimmed">
                  {apiKeyTexts.createdAt(ago(key.createdAt))} · {key.lastUsedAt ? apiKeyTexts.lastUsed(ago(key.lastUsedAt)) : apiKeyTexts.neverUsed}
                  {key.expiresAt && ` · ${Date.parse(key.expiresAt) <= Date.now() ? apiKeyTexts.expired : apiKeyTexts.expiresAt(new Date(key.expiresAt).toLocaleDateString())}`}
                </Text>
              </div>
              <Button
                size="xs"
                color="red"
                variant="light"
                aria-label={apiKeyTexts.revokeLabel(key.name)}
                loading={revoke.isPending && revoke.variables?.id === key.id}
                onClick={() => revoke.mutate({ id: key.id })}
              >
                {apiKeyTexts.revoke}
              </Button>
            </Group>
          ))}
        </Stack>
      </SettingsSection>
      <Modal opened={created !== null} onClose={() => setCreated(null)} title={apiKeyTexts.created} centered>
        {created && (
          <Stack gap="sm">
            <Alert color="yellow">{apiKeyTexts.shownOnce}</Alert>
            <Text size="sm" fw={500}>
              {created.name}
            </Text>
            <Code block style={{ wordBreak: 'break-all' }} aria-label={apiKeyTexts.prefix}>
              {created.key}
            </Code>
            <Group justify="flex-end">
              <CopyButton value={created.key} timeout={2000}>
                {({ copied, copy }) => (
                  <Button variant="default" onClick={copy} leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}>
                    {copied ? apiKeyTexts.copied : apiKeyTexts.copy}
                  </Button>
                )}
              </CopyButton>
              <Button onClick={() => setCreated(null)}>{apiKeyTexts.done}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Box>
  );
}

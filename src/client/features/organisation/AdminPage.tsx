import { Alert, Badge, Button, Card, Code, CopyButton, Group, Modal, Progress, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { organisationTexts } from '../../../shared/texts';
import { PageFrame } from '../../components/shell/PageFrame';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { ago } from '../../lib/relativeTime';
import { trpc } from '../../lib/trpc';
import { useSession } from '../auth/useSession';
import { AnalyticsSection } from './AnalyticsSection';
import { ProgramsSection } from './ProgramsSection';
import { OrganisationSettingsCard } from './OrganisationSettingsCard';
import { AuditLog } from './AuditLog';
import { InviteByCsv } from './InviteByCsv';
import { MemberStateBadge } from './MemberStateBadge';

const texts = organisationTexts.console;

// /admin: the organisation's members with their state, the seats, and the SCIM tokens (a new one
// shown once). What the admin procedures answer, and nothing of anyone's coaching.
export function AdminPage() {
  const { orgAdmin, isLoading } = useSession();
  return (
    <PageFrame title={texts.title} subtitle={texts.subtitle}>
      {isLoading ? <Skeleton height={200} radius="md" /> : orgAdmin ? <Console /> : <Alert color="red">{organisationTexts.adminsOnly}</Alert>}
    </PageFrame>
  );
}

function Console() {
  const organisation = useQuery(trpc.admin.organisation.queryOptions(undefined, { retry: false }));
  const members = useQuery(trpc.admin.members.queryOptions(undefined, { retry: false }));
  if (organisation.isError || members.isError) return <Alert color="red">{errorMessage(organisation.error ?? members.error, texts.loadFailed)}</Alert>;
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="md" component="section" aria-labelledby="seats-heading">
        <Title id="seats-heading" order={2} size="h5" mb="xs">
          {texts.seatsHeading}
        </Title>
        {organisation.data ? (
          <Stack gap={6}>
            <Text size="sm">{texts.seatsInUse(organisation.data.seatsInUse, organisation.data.seats)}</Text>
            {organisation.data.seats !== null && (
              <Progress value={organisation.data.seats ? Math.min(100, (organisation.data.seatsInUse / organisation.data.seats) * 100) : 100} aria-label={texts.seatsHeading} />
            )}
            {organisation.data.seats !== null && organisation.data.seatsInUse >= organisation.data.seats && (
              <Alert color="orange">{texts.seatsFull}</Alert>
            )}
          </Stack>
        ) : (
          <Skeleton height={24} />
        )}
      </Card>
      <Card withBorder radius="md" padding="md" component="section" aria-labelledby="members-heading">
        <Title id="members-heading" order={2} size="h5" mb="xs">
          {texts.membersHeading}
        </Title>
        {members.data ? (
          <Table.ScrollContainer minWidth={480}>
            <Table aria-labelledby="members-heading" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{texts.memberColumns.name}</Table.Th>
                  <Table.Th>{texts.memberColumns.username}</Table.Th>
                  <Table.Th>{texts.memberColumns.role}</Table.Th>
                  <Table.Th>{texts.memberColumns.state}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.data.members.map((member) => (
                  <Table.Tr key={member.id}>
                    <Table.Td>{member.fullName}</Table.Td>
                    <Table.Td>
                      {member.username}
                      {member.provisioned && (
                        <Badge ml={6} size="xs" variant="light">
                          {texts.provisioned}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{texts.roles[member.role]}</Table.Td>
                    <Table.Td>
                      <MemberStateBadge state={member.state} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Skeleton height={120} />
        )}
      </Card>
      <ScimTokens />
      <AnalyticsSection />
      <ProgramsSection />
      <OrganisationSettingsCard />
      <InviteByCsv />
      <AuditLog />
    </Stack>
  );
}

function ScimTokens() {
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.admin.scimTokens.queryOptions(undefined, { retry: false }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.scimTokens.queryKey() });
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation(
    trpc.admin.createScimToken.mutationOptions({
      onSuccess: (token) => setCreated(token.token),
      onError: (error) => notify.error(texts.createFailed, errorMessage(error, texts.createFailed)),
      onSettled: refresh,
    }),
  );
  const revoke = useMutation(
    trpc.admin.revokeScimToken.mutationOptions({
      onSuccess: () => notify.success(texts.revokedToast),
      onError: (error) => notify.error(errorMessage(error, organisationTexts.scimTokenNotFound)),
      onSettled: refresh,
    }),
  );
  const list = tokens.data?.tokens ?? [];
  const tenantUrl = `${window.location.origin}/scim/v2`;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="tokens-heading">
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title id="tokens-heading" order={2} size="h5">
          {texts.tokensHeading}
        </Title>
        <Button size="sm" loading={create.isPending} leftSection={<IconKey size={16} aria-hidden />} onClick={() => create.mutate()}>
          {texts.createToken}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {texts.tokensDescription}
      </Text>
      <Text size="sm" mb="sm">
        {texts.tenantUrl(tenantUrl)}
      </Text>
      {tokens.data && list.length === 0 && (
        <Text size="sm" c="dimmed">
          {texts.noTokens}
        </Text>
      )}
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={texts.tokensHeading}>
        {list.map((token) => (
          <Group key={token.id} component="li" justify="space-between" wrap="nowrap" aria-label={token.prefix}>
            <div>
              <Code>{token.prefix}…</Code>
              <Text size="xs" c="dimmed">
                {ago(token.createdAt)}
                {token.revokedAt ? ` · ${texts.tokenRevoked}` : ''}
              </Text>
            </div>
            {!token.revokedAt && (
              <Button size="xs" color="red" variant="light" aria-label={texts.revokeLabel(token.prefix)} loading={revoke.isPending && revoke.variables?.id === token.id} onClick={() => revoke.mutate({ id: token.id })}>
                {texts.revoke}
              </Button>
            )}
          </Group>
        ))}
      </Stack>
      <Modal opened={created !== null} onClose={() => setCreated(null)} title={texts.tokenCreated}>
        <Stack gap="sm">
          <Text size="sm">{texts.tokenShownOnce}</Text>
          <Code block aria-label={texts.tokenLabel} style={{ wordBreak: 'break-all' }}>
            {created}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={created ?? ''}>
              {({ copied, copy }) => (
                <Button variant="light" leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />} onClick={copy}>
                  {copied ? texts.copied : texts.copy}
                </Button>
              )}
            </CopyButton>
            <Button onClick={() => setCreated(null)}>{texts.done}</Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

import { Alert, Button, Card, Code, FileInput, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconFileTypeCsv, IconUserPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { organisationTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

const texts = organisationTexts.console;

// The console's "Invite by CSV": a file picked here, its text sent as is (the server reads the CSV),
// and what came of it: how many were invited, and each line skipped with its reason.
export function InviteByCsv() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const invite = useMutation(
    trpc.admin.inviteMembers.mutationOptions({
      onError: (error) => notify.error(texts.inviteFailed, errorMessage(error, texts.inviteFailed)),
      onSettled: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.admin.members.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.admin.organisation.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.admin.audit.pathKey() }),
        ]),
    }),
  );
  const submit = async () => {
    if (!file) return;
    let csv: string;
    try {
      csv = await file.text();
    } catch {
      notify.error(texts.inviteReadFailed);
      return;
    }
    invite.mutate({ csv });
  };
  const result = invite.data;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="invite-heading">
      <Title id="invite-heading" order={2} size="h5" mb="xs">
        {texts.inviteHeading}
      </Title>
      <Stack gap="sm">
        <Text size="sm">{texts.inviteDescription}</Text>
        <Code block>{texts.inviteExample}</Code>
        <Group align="flex-end" wrap="wrap">
          <FileInput
            label={texts.inviteFile}
            placeholder={texts.inviteFilePlaceholder}
            accept=".csv,text/csv"
            value={file}
            onChange={(picked) => {
              setFile(picked);
              invite.reset();
            }}
            leftSection={<IconFileTypeCsv size={16} aria-hidden />}
            clearable
            clearButtonProps={{ 'aria-label': texts.inviteClear }}
            // Mantine's placeholder grey is too light for axe's contrast; the dimmed text colour is not.
            styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
            style={{ flex: '1 1 220px', minWidth: 0 }}
          />
          <Button leftSection={<IconUserPlus size={16} aria-hidden />} disabled={!file} loading={invite.isPending} onClick={() => void submit()}>
            {texts.inviteSubmit}
          </Button>
        </Group>
        {invite.isError && <Alert color="red">{errorMessage(invite.error, texts.inviteFailed)}</Alert>}
        {result && (
          <Stack gap="xs" role="status">
            <Alert color={result.skipped.length ? 'orange' : 'teal'}>{texts.inviteResult(result.invited, result.skipped.length)}</Alert>
            {result.skipped.length > 0 && (
              <Table.ScrollContainer minWidth={300}>
                <Table aria-label={texts.inviteResult(result.invited, result.skipped.length)} striped verticalSpacing="xs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{texts.inviteSkippedColumns.line}</Table.Th>
                      <Table.Th>{texts.inviteSkippedColumns.email}</Table.Th>
                      <Table.Th>{texts.inviteSkippedColumns.reason}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {result.skipped.map((skip) => (
                      <Table.Tr key={skip.line}>
                        <Table.Td>{skip.line}</Table.Td>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>{skip.email}</Table.Td>
                        <Table.Td>{skip.reason}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

import { Alert, Button, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDownload, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { ExportFormat } from '../../../shared/schemas/privacy';
import { privacyTexts as texts } from '../../../shared/texts';
import { downloadFile } from '../../lib/downloadFile';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { afterSessionChange, trpc } from '../../lib/trpc';
import { SettingsSection } from './SettingsSection';

// Settings, Privacy tab: 'Export my data' (JSON or Markdown) and 'Delete my account'.
export function DataRightsSection() {
  const navigate = useNavigate();
  const [format, setFormat] = useState<ExportFormat>('json');
  const [opened, dialog] = useDisclosure(false);
  const [confirmation, setConfirmation] = useState('');
  const exportData = useMutation(trpc.privacy.exportMyData.mutationOptions());
  const deleteAccount = useMutation(trpc.privacy.deleteAccount.mutationOptions());

  async function exportMyData() {
    try {
      const file = await exportData.mutateAsync({ format });
      downloadFile(file.fileName, file.content, `${file.mimeType};charset=utf-8`);
      notify.success(texts.exportReadyTitle, texts.exportReadyBody(file.fileName));
    } catch (error) {
      notify.error(texts.exportFailedTitle, errorMessage(error, texts.exportFailed));
    }
  }

  async function confirmDelete() {
    try {
      await deleteAccount.mutateAsync({ confirmation: texts.deleteConfirmWord });
      dialog.close();
      notify.success(texts.deletedTitle, texts.deletedBody);
      // Leave the app screens first, so their queries are not refetched (and 401) in between.
      await navigate({ to: '/' });
      await afterSessionChange();
    } catch {
      // Shown in the dialog (e.g. the demo account cannot be deleted).
    }
  }

  const closeDialog = () => {
    dialog.close();
    setConfirmation('');
    deleteAccount.reset();
  };

  return (
    <SettingsSection heading={texts.yourDataHeading} description={texts.yourDataDescription}>
      <Stack gap="xs">
        <Text size="sm">{texts.exportDescription}</Text>
        <Group gap="sm" wrap="wrap">
          <SegmentedControl
            aria-label={texts.exportFormat}
            value={format}
            onChange={(value) => setFormat(value as ExportFormat)}
            data={[
              { value: 'json', label: texts.formatJson },
              { value: 'markdown', label: texts.formatMarkdown },
            ]}
          />
          <Button variant="default" leftSection={<IconDownload size={16} />} loading={exportData.isPending} onClick={() => void exportMyData()}>
            {texts.exportMyData}
          </Button>
        </Group>
      </Stack>
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          {texts.deleteHeading}
        </Text>
        <Text size="sm" c="dimmed">
          {texts.deleteDescription}
        </Text>
        <Group>
          <Button color="red" variant="outline" leftSection={<IconTrash size={16} />} onClick={dialog.open}>
            {texts.deleteMyAccount}
          </Button>
        </Group>
      </Stack>
      <Modal opened={opened} onClose={closeDialog} title={texts.deleteDialogTitle} centered>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (confirmation === texts.deleteConfirmWord) void confirmDelete();
          }}
        >
          <Stack gap="md">
            <Text size="sm">{texts.deleteDialogBody}</Text>
            <TextInput
              label={texts.deleteConfirmLabel}
              value={confirmation}
              onChange={(event) => setConfirmation(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            {deleteAccount.error && (
              <Alert color="red" title={texts.deleteFailedTitle} role="alert">
                {errorMessage(deleteAccount.error, texts.deleteFailedTitle)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={closeDialog}>
                {texts.cancel}
              </Button>
              <Button type="submit" color="red" disabled={confirmation !== texts.deleteConfirmWord} loading={deleteAccount.isPending}>
                {texts.deleteMyAccount}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </SettingsSection>
  );
}

import { Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { microsoftTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { useFolders } from './mailQueries';

// Create a folder with an optional parent (the product spec's screens and validation rules); the list reloads after.
export function CreateFolderForm() {
  const [name, setName] = useState('');
  const [parent, setParent] = useState<string | null>(null);
  const folders = useFolders(true);
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.microsoft.createFolder.mutationOptions({
      onSuccess: (answer) => {
        notify.success(microsoftTexts.folderCreatedTitle, answer.message);
        setName('');
        setParent(null);
        void queryClient.invalidateQueries({ queryKey: trpc.microsoft.folders.queryKey() });
      },
      onError: (error) => notify.error(microsoftTexts.createFolderErrorTitle, errorMessage(error, microsoftTexts.createFolderError)),
    }),
  );
  const empty = name.trim() === '';
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (empty) return notify.error(microsoftTexts.folderNameRequiredTitle, microsoftTexts.folderNameRequired);
        create.mutate({ displayName: name.trim(), ...(parent ? { parentFolderId: parent } : {}) });
      }}
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          {microsoftTexts.newFolderHeading}
        </Title>
        <TextInput label={microsoftTexts.folderName} placeholder={microsoftTexts.folderNamePlaceholder} value={name} onChange={(event) => setName(event.currentTarget.value)} maxLength={255} />
        <Select
          label={microsoftTexts.parentFolder}
          placeholder={microsoftTexts.parentPlaceholder}
          clearable
          searchable
          value={parent}
          onChange={setParent}
          data={(folders.data?.folders ?? []).map((f) => ({ value: f.id, label: f.displayName }))}
        />
        <Group>
          <Button type="submit" disabled={empty} loading={create.isPending}>
            {microsoftTexts.createFolder}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import { Badge, Group, Loader, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconFolder } from '@tabler/icons-react';
import type { GraphFolder } from '../../../server/providers/microsoft/graphMail';
import { microsoftTexts } from '../../../shared/texts';
import { ReadError } from './MailStates';
import { useFolders } from './mailQueries';

// Folders with total, unread and child counts, about 24rem high (the product spec's screens). Child folders
// are indented under their parent. With onPick, a click picks the folder.
export function FolderList(props: { onPick?: (folder: GraphFolder) => void; selectedId?: string | null }) {
  const folders = useFolders(true);
  if (folders.isPending) return <Loader aria-label="Loading folders" />;
  if (folders.isError) {
    return <ReadError title={microsoftTexts.fetchFoldersErrorTitle} fallback={microsoftTexts.fetchFoldersError} hint={microsoftTexts.fetchFoldersHint} error={folders.error} onRetry={() => void folders.refetch()} />;
  }
  if (!Array.isArray(folders.data.folders)) return <Text c="red">{microsoftTexts.invalidResponse}</Text>;
  const depthOf = depths(folders.data.folders);
  if (!folders.data.folders.length) return <Text c="dimmed">{microsoftTexts.noFolders}</Text>;
  return (
    <ScrollArea.Autosize mah="24rem" type="auto">
      <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={microsoftTexts.foldersHeading}>
        {folders.data.folders.map((folder) => {
          const row = (
            <Group justify="space-between" wrap="wrap" gap="xs" py={6} px="xs" pl={`calc(var(--mantine-spacing-xs) + ${depthOf.get(folder.id) ?? 0} * 1rem)`}>
              <Group gap={6} wrap="nowrap" style={{ minWidth: '8rem', flex: '1 1 8rem' }}>
                <IconFolder size={16} aria-hidden style={{ flexShrink: 0 }} />
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {folder.displayName}
                </Text>
              </Group>
              <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                <Badge variant="light" color="gray" size="sm" title={microsoftTexts.total}>
                  {microsoftTexts.total} {folder.totalItemCount}
                </Badge>
                <Badge variant="light" color="blue" size="sm" title={microsoftTexts.unread}>
                  {microsoftTexts.unread} {folder.unreadItemCount}
                </Badge>
                <Badge variant="light" color="grape" size="sm" title={microsoftTexts.subfolders}>
                  {microsoftTexts.subfolders} {folder.childFolderCount}
                </Badge>
              </Group>
            </Group>
          );
          return (
            <li key={folder.id} aria-label={folder.displayName}>
              {props.onPick ? (
                <UnstyledButton
                  w="100%"
                  onClick={() => props.onPick?.(folder)}
                  aria-label={microsoftTexts.pickAsDestination(folder.displayName)}
                  aria-pressed={props.selectedId === folder.id}
                  style={{ borderRadius: 'var(--mantine-radius-sm)', background: props.selectedId === folder.id ? 'var(--mantine-color-indigo-light)' : undefined }}
                >
                  {row}
                </UnstyledButton>
              ) : (
                row
              )}
            </li>
          );
        })}
      </Stack>
    </ScrollArea.Autosize>
  );
}

function depths(folders: GraphFolder[]): Map<string, number> {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const result = new Map<string, number>();
  const depth = (folder: GraphFolder, guard = 0): number => {
    const parent = folder.parentFolderId ? byId.get(folder.parentFolderId) : undefined;
    return parent && guard < 10 ? depth(parent, guard + 1) + 1 : 0;
  };
  for (const folder of folders) result.set(folder.id, depth(folder));
  return result;
}

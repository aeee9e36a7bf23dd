import { Card, Loader, Stack, Tabs, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { microsoftTexts } from '../../../shared/texts';
import { CreateFolderForm } from './CreateFolderForm';
import { FolderList } from './FolderList';
import { ConnectFirst } from './MailStates';
import { PageFrame } from '../../components/shell/PageFrame';
import { useMicrosoftStatus } from './useMicrosoftStatus';

// /microsoft-folders (the product spec's screens): tabs Folder Management and View Microsoft Emails.
export function FoldersPage() {
  const navigate = useNavigate();
  const status = useMicrosoftStatus();
  return (
    <PageFrame title={microsoftTexts.foldersTitle} subtitle={microsoftTexts.foldersSubtitle}>
      <Tabs value="folders" onChange={(value) => value === 'emails' && void navigate({ to: '/microsoft-emails' })}>
        <Tabs.List mb="md">
          <Tabs.Tab value="folders">{microsoftTexts.folderManagementTab}</Tabs.Tab>
          <Tabs.Tab value="emails">{microsoftTexts.viewEmailsTab}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="folders">
          {status.isPending ? (
            <Loader aria-label="Loading" />
          ) : !status.data?.connections.email.connected ? (
            <ConnectFirst />
          ) : (
            <Stack gap="lg">
              <Card withBorder radius="md" padding="md">
                <Title order={2} size="h4" mb="sm">
                  {microsoftTexts.foldersHeading}
                </Title>
                <FolderList />
              </Card>
              <Card withBorder radius="md" padding="md">
                <CreateFolderForm />
              </Card>
            </Stack>
          )}
        </Tabs.Panel>
      </Tabs>
    </PageFrame>
  );
}

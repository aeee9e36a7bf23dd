import { Loader, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { microsoftTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { CreateFolderForm } from './CreateFolderForm';
import { EmailList } from './EmailList';
import { FolderList } from './FolderList';
import { ConnectFirst } from './MailStates';
import { PageFrame } from '../../components/shell/PageFrame';
import { useMicrosoftStatus } from './useMicrosoftStatus';

// /microsoft-emails (the product spec's screens): tabs Emails and Folder Management. Clicking a folder picks
// it as the destination and switches to Emails.
export function EmailManagerPage() {
  const [tab, setTab] = useState<'emails' | 'folders'>('emails');
  const [destination, setDestination] = useState<string | null>(null);
  const status = useMicrosoftStatus();
  return (
    <PageFrame title={microsoftTexts.emailsTitle} subtitle={microsoftTexts.emailsSubtitle}>
      {status.isPending ? (
        <Loader aria-label="Loading" />
      ) : !status.data?.connections.email.connected ? (
        <ConnectFirst />
      ) : (
        <Tabs value={tab} onChange={(value) => value && setTab(value as 'emails' | 'folders')}>
          <Tabs.List mb="md">
            <Tabs.Tab value="emails">{microsoftTexts.emailsTab}</Tabs.Tab>
            <Tabs.Tab value="folders">{microsoftTexts.folderManagementTab}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="emails">
            <EmailList destination={destination} onDestinationChange={setDestination} />
          </Tabs.Panel>
          <Tabs.Panel value="folders">
            <Stack gap="lg">
              <Text size="sm" c="dimmed">
                {microsoftTexts.destinationPlaceholder}
              </Text>
              <FolderList
                selectedId={destination}
                onPick={(folder) => {
                  setDestination(folder.id);
                  setTab('emails');
                  notify.info(microsoftTexts.destinationChosen(folder.displayName));
                }}
              />
              <CreateFolderForm />
            </Stack>
          </Tabs.Panel>
        </Tabs>
      )}
    </PageFrame>
  );
}

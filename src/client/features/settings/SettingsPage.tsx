import { Box, Container, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { IconPlugConnected } from '@tabler/icons-react';
import { IconShieldLock } from '@tabler/icons-react';
import { IconUser } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageFrame } from '../../components/shell/PageFrame';
import { settingsTexts } from '../../../shared/texts';
import { trpc } from '../../lib/trpc';
import { useSession } from '../auth/useSession';
import { MemorySettingsLink } from '../memory/MemorySettingsLink';
import { ApiKeys } from './ApiKeys';
import { DataRightsSection } from './DataRightsSection';
import { ActiveSessions } from './ActiveSessions';
import { MicrosoftSignInSettings } from './MicrosoftSignInSettings';
import type { MicrosoftSignInErrorCode } from '../../../shared/texts';
import { SecurityActivity } from './SecurityActivity';
import { IntegrationSettings } from './IntegrationSettings';
import { NotificationSettingsForm } from './NotificationSettingsForm';
import { NudgeSettingsSection } from '../nudges/NudgeSettingsSection';
import { PhoneTrustSettings } from './PhoneTrustSettings';
import { PrivacySettingsForm } from './PrivacySettingsForm';
import { ProfileSettingsForm } from './ProfileSettingsForm';
import classes from './settings.module.css';
import { type SettingsTab, settingsTabs } from './settingsTabs';


const tabIcons: Record<SettingsTab, ReactNode> = {
  profile: <IconUser size={16} aria-hidden />,
  notifications: <IconBell size={16} aria-hidden />,
  privacy: <IconShieldLock size={16} aria-hidden />,
  integrations: <IconPlugConnected size={16} aria-hidden />,
};

const noop = () => {};

// /settings (the product spec's screens): the tab is part of the address, so a reload stays on it.
export function SettingsPage(props: {
  tab: SettingsTab;
  onTabChange: (tab: SettingsTab) => void;
  /** How a Microsoft link that came back here went (told once, then cleared from the address). */
  microsoft?: { linked?: boolean; error?: MicrosoftSignInErrorCode; onShown: () => void };
}) {
  const { data } = useSuspenseQuery(trpc.profile.get.queryOptions());
  // A guest space has no phone to verify and no account activity to show: the profile form says
  // what an account would add.
  const { guest } = useSession();
  return (
    <PageFrame title={settingsTexts.title} subtitle={settingsTexts.subtitle}>
      <Tabs
        value={props.tab}
        onChange={(value) => value && props.onTabChange(value as SettingsTab)}
        keepMounted
        classNames={{ list: classes.list, tab: classes.tab, tabSection: classes.tabSection }}
      >
        <Tabs.List mb="md">
          {settingsTabs.map((tab) => (
            <Tabs.Tab key={tab} value={tab} leftSection={tabIcons[tab]}>
              {settingsTexts.tabs[tab]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="profile">
          {/* Started afresh when the stored profile changes elsewhere (e.g. by onboarding). */}
          <ProfileSettingsForm key={JSON.stringify(data.profile)} profile={data.profile} />
          {!guest && <MicrosoftSignInSettings linked={props.microsoft?.linked} error={props.microsoft?.error} onShown={props.microsoft?.onShown ?? noop} />}
          {!guest && <PhoneTrustSettings key={`${data.profile.phone}-${data.phoneTrust.verified}`} phone={data.profile.phone} trust={data.phoneTrust} />}
          <ActiveSessions />
          <ApiKeys />
          {!guest && <SecurityActivity />}
        </Tabs.Panel>
        <Tabs.Panel value="notifications">
          <Stack gap="lg">
            <NotificationSettingsForm notifications={data.notifications} />
            <NudgeSettingsSection />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="privacy">
          <Stack gap="lg">
            <PrivacySettingsForm privacy={data.privacy} />
            <MemorySettingsLink />
            <DataRightsSection />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="integrations">
          <IntegrationSettings />
        </Tabs.Panel>
      </Tabs>
    </PageFrame>
  );
}

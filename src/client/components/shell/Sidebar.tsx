import { Button, Divider, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { IconTarget } from '@tabler/icons-react';
import { IconTargetArrow } from '@tabler/icons-react';
import { IconChartArrowsVertical } from '@tabler/icons-react';
import { IconRoute } from '@tabler/icons-react';
import { IconBell, IconSettings } from '@tabler/icons-react';
import { IconBook } from '@tabler/icons-react';
import { IconBrain } from '@tabler/icons-react';
import { IconPlugConnected } from '@tabler/icons-react';
import { IconMail } from '@tabler/icons-react';
import { IconFolder } from '@tabler/icons-react';
import { IconWriting } from '@tabler/icons-react';
import { IconMicrophone, IconPhoneCall } from '@tabler/icons-react';
import { IconBuilding, IconCalendarEvent, IconMasksTheater } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { chatViewTexts, goalShellTexts, meetingsShellTexts, memoryShellTexts, nudgesShellTexts, organisationTexts, rehearsalShellTexts } from '../../../shared/texts';
import { useSession } from '../../features/auth/useSession';
import { RecentChats } from '../../features/chat/RecentChats';
import { IntegrationsBadge } from '../../features/microsoft/SidebarMicrosoft';
import { openSearch } from '../../features/search/SearchDialog';
import hintClasses from '../keyboardHint.module.css';
import { UserBlock } from './UserBlock';

type MenuItem = { label: string; to: string; icon: ReactNode };

// The Menu of the product spec's screens. Items join this list as their pages are built (Integrations, Microsoft
// Emails, Manage Folders, User Knowledge Base, Writing Style Analysis, Voice Assistant, Settings).
export const menuItems: MenuItem[] = [
  { label: 'Integrations', to: '/integrations', icon: <IconPlugConnected size={18} aria-hidden /> },
  { label: 'Microsoft Emails', to: '/microsoft-emails', icon: <IconMail size={18} aria-hidden /> },
  { label: 'Manage Folders', to: '/microsoft-folders', icon: <IconFolder size={18} aria-hidden /> },
  { label: 'User Knowledge Base', to: '/knowledge-base', icon: <IconBook size={18} aria-hidden /> },
  { label: goalShellTexts.sidebarItem, to: '/goals', icon: <IconTargetArrow size={18} aria-hidden /> },
  { label: memoryShellTexts.sidebarItem, to: '/memory', icon: <IconBrain size={18} aria-hidden /> },
  { label: meetingsShellTexts.navLabel, to: '/meetings', icon: <IconCalendarEvent size={18} aria-hidden /> },
  { label: rehearsalShellTexts.navLabel, to: '/rehearsals', icon: <IconMasksTheater size={18} aria-hidden /> },
  // The coach's nudges: the weekly review and meeting briefs, run now and their history.
  { label: nudgesShellTexts.navLabel, to: '/nudges', icon: <IconBell size={18} aria-hidden /> },
  { label: 'Writing Style Analysis', to: '/writing-style-analysis', icon: <IconWriting size={18} aria-hidden /> },
  { label: 'Voice Assistant', to: '/phone-calls', icon: <IconMicrophone size={18} aria-hidden /> },
  { label: 'Settings', to: '/settings', icon: <IconSettings size={18} aria-hidden /> },
];

// GROW Framework, OKRs and SMART Goals lead to the chat's coaching tools section.
const coachingTools = [
  { label: 'GROW Framework', icon: <IconRoute size={18} aria-hidden /> },
  { label: 'OKRs', icon: <IconChartArrowsVertical size={18} aria-hidden /> },
  { label: 'SMART Goals', icon: <IconTarget size={18} aria-hidden /> },
];

export function Sidebar(props: { onNavigate: () => void }) {
  // The organisation's console, for its admins only.
  const { orgAdmin } = useSession();
  return (
    <Stack h="100%" gap={0}>
      <Stack p="md" pb="xs" gap="xs">
        <Button
          renderRoot={(rootProps) => <Link {...rootProps} to="/app" search={{ new: true }} />}
          leftSection={<IconPlus size={16} />}
          fullWidth
          onClick={props.onNavigate}
        >
          {chatViewTexts.newChat}
        </Button>
        <Button
          variant="default"
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={
            <Text size="xs" c="dimmed" className={hintClasses.keyboardHint} data-keyboard-hint>
              {memoryShellTexts.searchShortcut}
            </Text>
          }
          justify="space-between"
          fullWidth
          onClick={() => {
            props.onNavigate();
            openSearch();
          }}
        >
          {memoryShellTexts.searchButton}
        </Button>
      </Stack>
      <ScrollArea style={{ flex: 1 }} px="md" type="auto">
        <Stack gap="md" pb="md">
          <section aria-labelledby="recent-chats-heading">
            <Text id="recent-chats-heading" size="xs" fw={700} c="dimmed" tt="uppercase" mb={6}>
              {chatViewTexts.recentChats}
            </Text>
            <RecentChats onNavigate={props.onNavigate} />
          </section>
          {menuItems.length > 0 && (
            <nav aria-labelledby="menu-heading">
              <Text id="menu-heading" size="xs" fw={700} c="dimmed" tt="uppercase" mb={6}>
                Menu
              </Text>
              {menuItems.map((item) => (
                <NavLink key={item.to} component={Link} to={item.to} label={item.label} leftSection={item.icon} rightSection={item.to === '/integrations' ? <IntegrationsBadge /> : undefined} onClick={props.onNavigate} />
              ))}
              {orgAdmin && (
                <NavLink component={Link} to="/admin" label={organisationTexts.console.navLabel} leftSection={<IconBuilding size={18} aria-hidden />} onClick={props.onNavigate} />
              )}
            </nav>
          )}
          <nav aria-labelledby="coaching-tools-heading">
            <Text id="coaching-tools-heading" size="xs" fw={700} c="dimmed" tt="uppercase" mb={6}>
              Coaching Tools
            </Text>
            <NavLink component={Link} to="/phone-calls" label="Call AI Coach" leftSection={<IconPhoneCall size={18} aria-hidden />} onClick={props.onNavigate} />
            {coachingTools.map((tool) => (
              <NavLink
                key={tool.label}
                renderRoot={(rootProps) => (
                  <Link {...rootProps} to="/app" hash="coaching-tools" activeOptions={{ includeHash: true, includeSearch: false }} />
                )}
                label={tool.label}
                leftSection={tool.icon}
                onClick={props.onNavigate}
              />
            ))}
          </nav>
        </Stack>
      </ScrollArea>
      <Divider />
      <Stack p="xs">
        <UserBlock showSettings={menuItems.some((item) => item.to === '/settings')} onNavigate={props.onNavigate} />
      </Stack>
    </Stack>
  );
}

import { Group, Text, UnstyledButton, useMantineColorScheme, VisuallyHidden } from '@mantine/core';
import { IconChevronUp } from '@tabler/icons-react';
import { IconLogout } from '@tabler/icons-react';
import { IconMoon } from '@tabler/icons-react';
import { IconSettings } from '@tabler/icons-react';
import { IconSun } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useLogout } from '../../features/auth/useLogout';
import { initialsOf, useSession } from '../../features/auth/useSession';
import { AvatarCircle } from '../AvatarCircle';
import { LazyMenu } from '../LazyFloating';

// Initials, full name and job title, with a menu of Settings and Logout (the product spec's screens).
export function UserBlock(props: { showSettings: boolean; onNavigate?: () => void }) {
  const { user, signedIn } = useSession();
  // A failed logout is shown, not only logged: the user must know they are still signed in.
  const { logout, isPending } = useLogout({ onFailure: 'toast' });
  const { colorScheme, toggleColorScheme } = useMantineColorScheme();
  if (!user) return null;
  return (
    <LazyMenu
      position="top-start"
      width={240}
      withinPortal
      target={
        // Named by what it shows (the name and job title), after a hidden 'Account menu for': a
        // separate label would not contain the visible text.
        <UnstyledButton
          p="xs"
          w="100%"
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        >
          <Group gap="sm" wrap="nowrap">
            <VisuallyHidden>Account menu for</VisuallyHidden>
            <AvatarCircle>{initialsOf(user.fullName)}</AvatarCircle>
            <div style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm" fw={600} truncate="end">
                {user.fullName}
              </Text>
              <Text size="xs" c="dimmed" truncate="end">
                {user.jobTitle ?? (signedIn ? user.username : 'Demo account')}
              </Text>
            </div>
            <IconChevronUp size={16} aria-hidden />
          </Group>
        </UnstyledButton>
      }
      dropdown={(Menu) => (
        <>
        {props.showSettings && (
          <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} />} onClick={props.onNavigate}>
            Settings
          </Menu.Item>
        )}
        <Menu.Item
          leftSection={colorScheme === 'dark' ? <IconSun size={16} /> : <IconMoon size={16} />}
          onClick={toggleColorScheme}
          closeMenuOnClick={false}
        >
          {colorScheme === 'dark' ? 'Light theme' : 'Dark theme'}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={logout} disabled={isPending}>
          Logout
        </Menu.Item>
        </>
      )}
    />
  );
}

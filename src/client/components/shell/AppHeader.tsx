// The app's styles (Modal, AppShell, inputs ...) come with the app shell, whose header this is;
// not in this route file, whose imports the router keeps in the entry script.
import '../../styles/mantineApp';
import { Anchor, Burger, Group, Text, UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { commonTexts } from '../../../shared/texts';
import { initialsOf, useSession } from '../../features/auth/useSession';
import { AvatarCircle } from '../AvatarCircle';
import { LazyTooltip } from '../LazyFloating';

/** The header's links to the public pages (also drawn by AppShellPlaceholder). */
export const siteLinks = [
  { to: '/', label: 'Home' },
  { to: '/terms', label: 'Terms' },
  { to: '/privacy', label: 'Privacy' },
] as const;

export function AppHeader(props: { navOpened: boolean; onToggleNav?: () => void }) {
  const { user } = useSession();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {props.onToggleNav && (
        <Burger
          opened={props.navOpened}
          onClick={props.onToggleNav}
          hiddenFrom="sm"
          size="sm"
          aria-label={props.navOpened ? 'Close navigation' : 'Open navigation'}
        />
        )}
        <Anchor component={Link} to="/app" underline="never" c="inherit">
          <Text fw={800} size="lg" variant="gradient" gradient={{ from: 'indigo', to: 'cyan', deg: 45 }}>
            {commonTexts.brand}
          </Text>
        </Anchor>
      </Group>
      <Group gap="lg" wrap="nowrap">
        <Group gap="md" visibleFrom="xs" component="nav" aria-label="Site">
          {siteLinks.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to} size="sm" c="dimmed">
              {link.label}
            </Anchor>
          ))}
        </Group>
        {user && (
          <LazyTooltip label={user.fullName} openDelay={700}>
            {/* The name starts with the initials the link shows (label in name, WCAG 2.5.3). */}
            <UnstyledButton component={Link} to="/app" aria-label={`${initialsOf(user.fullName)}, signed in as ${user.fullName}`}>
              <AvatarCircle>{initialsOf(user.fullName)}</AvatarCircle>
            </UnstyledButton>
          </LazyTooltip>
        )}
      </Group>
    </Group>
  );
}

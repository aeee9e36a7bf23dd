import { Anchor, Box, Container, Group, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { MouseEvent } from 'react';
import { landingTexts } from '../../../shared/texts';
import { BrandLogo } from './BrandLogo';
import classes from './landing.module.css';

type Props = {
  onOpenDashboard: () => void;
  onIntent: () => void;
};

export function LandingFooter({ onOpenDashboard, onIntent }: Props) {
  const t = landingTexts.footer;

  // The product spec's screens: the dashboard link opens the auth dialog instead of navigating. A click with
  // a modifier (new tab, new window) still follows the link.
  const openDashboard = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpenDashboard();
  };

  return (
    <Box component="footer" className={classes.footer}>
      <Container size="lg" py="xl">
        <Group justify="space-between" align="flex-start" gap="lg">
          <Stack gap="xs" maw={360}>
            <BrandLogo />
            <Text size="sm" c="dimmed">
              {t.tagline}
            </Text>
          </Stack>
          <Box component="nav" aria-label={t.navigationLabel}>
            <Group gap="lg" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              <li>
                <Anchor
                  href="/app"
                  c="dimmed"
                  size="sm"
                  aria-haspopup="dialog"
                  onClick={openDashboard}
                  onPointerEnter={onIntent}
                  onFocus={onIntent}
                >
                  {t.dashboard}
                </Anchor>
              </li>
              <li>
                <Anchor component={Link} to="/terms" c="dimmed" size="sm">
                  {t.terms}
                </Anchor>
              </li>
              <li>
                <Anchor component={Link} to="/privacy" c="dimmed" size="sm">
                  {t.privacy}
                </Anchor>
              </li>
            </Group>
          </Box>
        </Group>
        <Text size="xs" c="dimmed" mt="xl">
          {t.copyright(new Date().getFullYear())}
        </Text>
      </Container>
    </Box>
  );
}

import { Box, Button, Container, Group } from '@mantine/core';
import { landingTexts } from '../../../shared/texts';
import { BrandLogo } from './BrandLogo';
import classes from './landing.module.css';

type Props = {
  onLogIn: () => void;
  onSignUp: () => void;
  onIntent: () => void;
};

export function LandingHeader({ onLogIn, onSignUp, onIntent }: Props) {
  const t = landingTexts.header;
  return (
    <Box component="header" className={classes.header}>
      <Container size="lg" h={64}>
        <Group h="100%" justify="space-between" wrap="nowrap" gap="sm">
          <BrandLogo />
          <Group gap="xs" wrap="nowrap" onPointerEnter={onIntent} onFocus={onIntent}>
            <Button variant="default" onClick={onLogIn} aria-haspopup="dialog">
              {t.logIn}
            </Button>
            <Button onClick={onSignUp} aria-haspopup="dialog">
              {t.signUp}
            </Button>
          </Group>
        </Group>
      </Container>
    </Box>
  );
}

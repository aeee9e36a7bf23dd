import { Box } from '@mantine/core';
import { lazy, Suspense, useCallback, useState } from 'react';
import { CallToActionSection } from './CallToActionSection';
import { FeaturesSection } from './FeaturesSection';
import { HeroSection } from './HeroSection';
import { IntegrationsSection } from './IntegrationsSection';
import { LandingFooter } from './LandingFooter';
import { LandingHeader } from './LandingHeader';
import classes from './landing.module.css';
import { mainContentId } from '../../../shared/texts/pageTitles';

type AuthTab = 'login' | 'register';

// The dialog (forms, validation, tabs) is not needed for the first paint of /: it is fetched
// when a visitor points at a button that opens it, or at the latest on the click.
const loadAuthDialog = () => import('../auth/AuthDialog');
const AuthDialog = lazy(() => loadAuthDialog().then((module) => ({ default: module.AuthDialog })));

type DialogState = { opened: boolean; tab: AuthTab; openings: number };

export function LandingPage() {
  const [dialog, setDialog] = useState<DialogState>({ opened: false, tab: 'register', openings: 0 });

  const openAuth = useCallback(
    (tab: AuthTab) => setDialog((current) => ({ opened: true, tab, openings: current.openings + 1 })),
    [],
  );
  const closeAuth = useCallback(() => setDialog((current) => ({ ...current, opened: false })), []);
  const preload = useCallback(() => void loadAuthDialog(), []);
  const openLogin = useCallback(() => openAuth('login'), [openAuth]);
  const openRegister = useCallback(() => openAuth('register'), [openAuth]);

  return (
    <Box className={classes.page} mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <LandingHeader onLogIn={openLogin} onSignUp={openRegister} onIntent={preload} />
      <Box component="main" id={mainContentId} style={{ flex: 1 }}>
        <HeroSection onStart={openRegister} onIntent={preload} />
        <FeaturesSection />
        <IntegrationsSection />
        <CallToActionSection onStart={openRegister} onIntent={preload} />
      </Box>
      <LandingFooter onOpenDashboard={openLogin} onIntent={preload} />
      {dialog.openings > 0 && (
        <Suspense fallback={null}>
          {/* A new key per opening, so the dialog starts on the tab the visitor asked for. */}
          <AuthDialog key={dialog.openings} opened={dialog.opened} onClose={closeAuth} initialTab={dialog.tab} />
        </Suspense>
      )}
    </Box>
  );
}

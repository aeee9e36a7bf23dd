import { Alert, Button, Divider, Stack, Tabs } from '@mantine/core';
import { useState } from 'react';
import { authTexts, microsoftSignInTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { LoginForm, type SignedInUser } from './LoginForm';
import { MicrosoftSignInButton } from './MicrosoftSignInButton';
import { RegisterForm } from './RegisterForm';
import { useSession } from './useSession';

export type AuthTab = 'login' | 'register';

type AuthTabsProps = {
  initialTab?: AuthTab;
  /** Called after a login or registration succeeded and the session queries were reset. */
  onSignedIn: (user: SignedInUser) => void | Promise<void>;
  /** Demo Login (the product spec's screens): only a toast, then onDemoLogin; offered in demo mode only. */
  onDemoLogin?: () => void;
  /** Put the focus in the first field when shown (used by the dialog). */
  autoFocus?: boolean;
};

// The Login / Create Account tabs shared by the auth dialog and the inline sign-in panel.
export function AuthTabs({ initialTab = 'login', onSignedIn, onDemoLogin, autoFocus }: AuthTabsProps) {
  const [tab, setTab] = useState<AuthTab>(initialTab);
  const session = useSession();
  const showDemoLogin = Boolean(onDemoLogin) && session.demoMode;

  const demoLogin = () => {
    // No call (the product spec's screens): demo mode already treats the demo user as signed in.
    notify.success(authTexts.loggedInTitle, authTexts.loggedInBody(session.user?.fullName ?? authTexts.demoCredentials.username));
    onDemoLogin?.();
  };

  // 'Sign in with Microsoft' above both tabs (it signs in or makes the account); with password
  // sign-in turned off it is the only way in.
  const microsoft = session.microsoftSignIn && (
    <>
      <MicrosoftSignInButton />
      {session.passwordLogin && <Divider label={microsoftSignInTexts.orDivider} labelPosition="center" />}
    </>
  );
  if (!session.passwordLogin) {
    return (
      <Stack gap="md">
        <Alert color="indigo" variant="light">
          {microsoftSignInTexts.passwordLoginOff}
        </Alert>
        {microsoft}
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {microsoft}
      <Tabs value={tab} onChange={(value) => value && setTab(value as AuthTab)} keepMounted={false}>
        <Tabs.List grow mb="md">
          <Tabs.Tab value="login">Login</Tabs.Tab>
          <Tabs.Tab value="register">Create Account</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="login">
          <Stack gap="md">
            <LoginForm onSignedIn={onSignedIn} autoFocus={autoFocus} />
            {showDemoLogin && (
              <>
                <Divider label="or" labelPosition="center" />
                <Button variant="default" fullWidth onClick={demoLogin}>
                  Demo Login
                </Button>
              </>
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="register">
          <RegisterForm onSignedIn={onSignedIn} autoFocus={autoFocus} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

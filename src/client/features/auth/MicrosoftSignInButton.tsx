import { Button } from '@mantine/core';
import { microsoftSignInTexts } from '../../../shared/texts';

// 'Sign in with Microsoft': a plain link (a full navigation), since the server answers with a
// redirect to the authority and sets the flow's cookie on the way.
export function MicrosoftSignInButton() {
  return (
    <Button component="a" href="/api/auth/microsoft/sign-in" variant="default" fullWidth leftSection={<MicrosoftLogo />}>
      {microsoftSignInTexts.button}
    </Button>
  );
}

function MicrosoftLogo() {
  return (
    <svg width="16" height="16" viewBox="0 0 21 21" aria-hidden focusable="false">
      <rect x="1" y="1" width="9" height="9" fill="#f25022" />
      <rect x="11" y="1" width="9" height="9" fill="#7fba00" />
      <rect x="1" y="11" width="9" height="9" fill="#00a4ef" />
      <rect x="11" y="11" width="9" height="9" fill="#ffb900" />
    </svg>
  );
}

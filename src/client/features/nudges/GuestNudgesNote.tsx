import { Stack, Text } from '@mantine/core';
import { nudgesTexts } from '../../../shared/texts';
import { AccountRequired } from '../auth/AccountRequired';

/** What nudges are in a guest space: Run now writes in the app; the rest needs an account. */
export function GuestNudgesNote() {
  return (
    <Stack gap="xs" mb="md">
      <Text size="sm" data-testid="nudges-guest-note">
        {nudgesTexts.guestInAppOnly}
      </Text>
      <AccountRequired what="nudgeSettings" compact />
    </Stack>
  );
}

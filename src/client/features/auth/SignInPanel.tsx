import { Paper, Text, Title } from '@mantine/core';
import { AuthTabs } from './AuthTabs';

// Shown by the app shell on /app when demo mode is off and nobody is signed in: the dialog's
// Login / Create Account tabs inline. After success it stays where it is; the reset session
// queries make the shell show the app.
export function SignInPanel() {
  return (
    <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }} w="100%" maw={460} mx="auto">
      <Title order={2} size="h3">
        Sign in to continue
      </Title>
      <Text c="dimmed" size="sm" mt={4} mb="md">
        Log in or create an account to use AI Coach.
      </Text>
      <AuthTabs onSignedIn={() => {}} />
    </Paper>
  );
}

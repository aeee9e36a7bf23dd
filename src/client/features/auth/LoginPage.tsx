import '../../styles/mantineApp';
import { Alert, Anchor, Box, Center, Code, Divider, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconInfoCircle } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { authTexts, commonTexts, microsoftSignInTexts, type MicrosoftSignInErrorCode } from '../../../shared/texts';
import { usePreloadToasts } from '../../components/Toasts';
import { AccessKeyForm } from './AccessKeyForm';
import { AccountLoginForm } from './AccountLoginForm';
import { MicrosoftSignInButton } from './MicrosoftSignInButton';
import { useSession } from './useSession';
import { mainContentId } from '../../../shared/texts/pageTitles';

// The standalone login page /login (the product spec's screens): Account Login and Access Key tabs, with the
// demo credentials on show while demo mode is on (the demo account works only then).
export function LoginPage(props: { microsoftError?: MicrosoftSignInErrorCode }) {
  const { demoMode, microsoftSignIn, passwordLogin } = useSession();
  usePreloadToasts();
  const demo = authTexts.demoCredentials;
  return (
    <Center component="main" id={mainContentId} mih="100dvh" p="md" bg="var(--mantine-color-gray-light)">
      <Box w="100%" maw={440}>
        <Anchor component={Link} to="/" size="sm" c="dimmed">
          <Group gap={4} component="span">
            <IconArrowLeft size={16} aria-hidden />
            Back to home
          </Group>
        </Anchor>
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }} mt="sm">
          <Stack gap={4} mb="md">
            <Text fw={700} c="indigo">
              {commonTexts.brand}
            </Text>
            <Title order={1} size="h2">
              Log in
            </Title>
          </Stack>
          {props.microsoftError && (
            <Alert variant="light" color="red" title={microsoftSignInTexts.button} mb="md" role="alert">
              {microsoftSignInTexts.errors[props.microsoftError]}
            </Alert>
          )}
          {!passwordLogin && (
            <Alert variant="light" color="indigo" mb="md">
              {microsoftSignInTexts.passwordLoginOff}
            </Alert>
          )}
          {microsoftSignIn && (
            <Stack gap="md" mb="md">
              <MicrosoftSignInButton />
              <Divider label={microsoftSignInTexts.orDivider} labelPosition="center" />
            </Stack>
          )}
          {demoMode && passwordLogin && (
            <Alert variant="light" color="indigo" icon={<IconInfoCircle size={18} />} title="Demo credentials" mb="md" role="note">
              Username <Code>{demo.username}</Code> and password <Code>{demo.password}</Code>
            </Alert>
          )}
          <Tabs key={String(passwordLogin)} defaultValue={passwordLogin ? 'account' : 'access-key'} keepMounted={false}>
            <Tabs.List grow mb="md">
              {passwordLogin && <Tabs.Tab value="account">Account Login</Tabs.Tab>}
              <Tabs.Tab value="access-key">Access Key</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="account">
              <AccountLoginForm />
            </Tabs.Panel>
            <Tabs.Panel value="access-key">
              <AccessKeyForm />
            </Tabs.Panel>
          </Tabs>
        </Paper>
      </Box>
    </Center>
  );
}

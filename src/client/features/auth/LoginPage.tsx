import '../../styles/mantineApp';
import { Alert, Anchor, Box, Center, Code, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconInfoCircle } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { authTexts, commonTexts } from '../../../shared/texts';
import { usePreloadToasts } from '../../components/Toasts';
import { AccessKeyForm } from './AccessKeyForm';
import { AccountLoginForm } from './AccountLoginForm';
import { useSession } from './useSession';

// The standalone login page /login (SPEC section 2): Account Login and Access Key tabs, with the
// demo credentials on show while demo mode is on (the demo account works only then).
export function LoginPage() {
  const { demoMode } = useSession();
  usePreloadToasts();
  const demo = authTexts.demoCredentials;
  return (
    <Center component="main" mih="100dvh" p="md" bg="var(--mantine-color-gray-light)">
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
          {demoMode && (
            <Alert variant="light" color="indigo" icon={<IconInfoCircle size={18} />} title="Demo credentials" mb="md" role="note">
              Username <Code>{demo.username}</Code> and password <Code>{demo.password}</Code>
            </Alert>
          )}
          <Tabs defaultValue="account" keepMounted={false}>
            <Tabs.List grow mb="md">
              <Tabs.Tab value="account">Account Login</Tabs.Tab>
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

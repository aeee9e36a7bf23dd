import '../../styles/mantineApp';
import { Modal, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useNavigate } from '@tanstack/react-router';
import { usePreloadToasts } from '../../components/Toasts';
import { AuthTabs, type AuthTab } from './AuthTabs';

export type { AuthTab };

// The auth dialog of the product spec's screens: Login and Create Account; on success it closes and goes
// to /app. Demo Login only toasts and proceeds.
export function AuthDialog(props: { opened: boolean; onClose: () => void; initialTab?: AuthTab }) {
  const navigate = useNavigate();
  const phone = useMediaQuery('(max-width: 30em)');
  usePreloadToasts();

  const proceed = async () => {
    props.onClose();
    await navigate({ to: '/app' });
  };

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={<Text fw={700} size="lg">AI Coach</Text>}
      size="md"
      fullScreen={phone}
    >
      <Text c="dimmed" size="sm" mb="md">
        Log in or create an account to start coaching.
      </Text>
      {/* The dialog is portalled out of the page, but React still bubbles its events through
          where it is written: opened from inside a form (Settings' profile, with its Create an
          account), its submit would submit that form too. */}
      <div onSubmit={(event) => event.stopPropagation()}>
        <AuthTabs initialTab={props.initialTab} onSignedIn={proceed} onDemoLogin={proceed} autoFocus />
      </div>
    </Modal>
  );
}

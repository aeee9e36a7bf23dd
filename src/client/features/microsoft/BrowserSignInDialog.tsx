import { Button, Center, Loader, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { MicrosoftServiceName } from '../../../shared/schemas/microsoft';
import { microsoftTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpcClient } from '../../lib/trpc';

const hashCheckMs = 1000;
const closeAfterSuccessMs = 1500;
const timeoutMs = 300_000;

function hasSuccessHash(popup: Window | null): boolean {
  if (window.location.hash.includes('integration-success')) return true;
  try {
    // The app in the popup may tidy its address; the callback's ?connected= says the same.
    return Boolean(popup && (popup.location.hash.includes('integration-success') || /[?&]connected=/.test(popup.location.search)));
  } catch {
    return false; // still on Microsoft's pages (another origin)
  }
}

// The product spec's states and transitions, browser sign-in: loading, then connected when a URL hash holds
// integration-success (checked every second); closes 1.5 s later; a toast after 5 minutes.
export function BrowserSignInDialog(props: { service: MicrosoftServiceName; opened: boolean; onClose: () => void; onSuccess: () => void }) {
  const [connected, setConnected] = useState(false);
  const [popupBlocked, setPopupBlocked] = useState(false);
  const popupRef = useRef<Window | null>(null);
  const { opened, onClose, onSuccess } = props;

  useEffect(() => {
    if (!opened) return;
    let cancelled = false;
    let check: ReturnType<typeof setInterval> | undefined;
    let timeout: ReturnType<typeof setTimeout> | undefined;
    let closeLater: ReturnType<typeof setTimeout> | undefined;
    setConnected(false);
    setPopupBlocked(false);
    // The popup is opened before the request so the browser counts it as the user's click.
    const popup = window.open('about:blank', 'microsoft-sign-in', 'width=600,height=700');
    popupRef.current = popup;
    (async () => {
      try {
        const { authUrl } = await trpcClient.microsoft.startBrowserSignIn.mutate({ service: props.service });
        if (cancelled) return;
        if (!authUrl) {
          popup?.close();
          notify.error(microsoftTexts.authErrorTitle, microsoftTexts.noAuthUrl);
          onClose();
          return;
        }
        if (!popup || popup.closed) setPopupBlocked(true);
        else popup.location.href = authUrl;
      } catch (error) {
        popup?.close();
        if (cancelled) return;
        notify.error(microsoftTexts.authErrorTitle, errorMessage(error, microsoftTexts.thrownAuthError));
        onClose();
        return;
      }
      check = setInterval(() => {
        if (!hasSuccessHash(popupRef.current)) return;
        clearInterval(check);
        clearTimeout(timeout);
        setConnected(true);
        closeLater = setTimeout(() => {
          popupRef.current?.close();
          onSuccess();
          onClose();
        }, closeAfterSuccessMs);
      }, hashCheckMs);
      timeout = setTimeout(() => {
        clearInterval(check);
        notify.error(microsoftTexts.timeoutTitle, microsoftTexts.timeoutBody);
      }, timeoutMs);
    })();
    return () => {
      cancelled = true;
      clearInterval(check);
      clearTimeout(timeout);
      clearTimeout(closeLater);
    };
    // The flow restarts only when the dialog opens again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  return (
    <Modal opened={opened} onClose={onClose} title={microsoftTexts.browserDialogTitle(props.service)} centered>
      {connected ? (
        <Stack align="center" gap="xs" py="md" role="status">
          <ThemeIcon color="teal" size="xl" radius="xl">
            <IconCheck aria-hidden />
          </ThemeIcon>
          <Text fw={600}>{microsoftTexts.browserConnected}</Text>
        </Stack>
      ) : (
        <Stack gap="md" py="sm">
          <Center>
            <Loader aria-label="Waiting for Microsoft sign-in" />
          </Center>
          <Text ta="center" size="sm">
            {popupBlocked ? microsoftTexts.popupBlocked : microsoftTexts.browserWaiting}
          </Text>
          <Button variant="default" onClick={onClose}>
            {microsoftTexts.cancel}
          </Button>
        </Stack>
      )}
    </Modal>
  );
}

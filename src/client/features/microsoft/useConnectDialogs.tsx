import { Modal } from '@mantine/core';
import { AccountRequired } from '../auth/AccountRequired';
import { useSession } from '../auth/useSession';
import { useState, type ReactNode } from 'react';
import type { MicrosoftServiceName } from '../../../shared/schemas/microsoft';
import { microsoftTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { BrowserSignInDialog } from './BrowserSignInDialog';
import { DeviceCodeDialog } from './DeviceCodeDialog';
import { takeConnectionFlags } from './connectionFlags';
import { useRefreshMicrosoft } from './useMicrosoftStatus';

type Open = { service: MicrosoftServiceName; method: 'browser' | 'device' } | null;

/** The two connect dialogs (the product spec's screens), opened per service; `dialogs` goes in the page. */
export function useConnectDialogs(): { open: (service: MicrosoftServiceName, method: 'browser' | 'device') => void; dialogs: ReactNode } {
  const [current, setCurrent] = useState<Open>(null);
  const refresh = useRefreshMicrosoft();
  const { guest } = useSession();
  const close = () => setCurrent(null);
  const succeeded = () => {
    // The flags a device flow wrote are read at once here; the sidebar reads them on a later load.
    const service = takeConnectionFlags() ?? current?.service ?? microsoftTexts.genericService;
    notify.success(microsoftTexts.connectionActiveTitle, microsoftTexts.connectionActiveBody(service));
    void refresh();
  };
  // A guest space connects nothing: it is shown what it needs, and a way to register.
  const dialogs = guest ? (
    <Modal opened={current !== null} onClose={close} title={microsoftTexts.connectTitle(current?.service ?? microsoftTexts.genericService)} centered>
      <AccountRequired what="microsoft" compact />
    </Modal>
  ) : (
    <>
      <BrowserSignInDialog service={current?.service ?? 'Microsoft Email'} opened={current?.method === 'browser'} onClose={close} onSuccess={succeeded} />
      <DeviceCodeDialog service={current?.service ?? 'Microsoft Email'} opened={current?.method === 'device'} onClose={close} onSuccess={succeeded} />
    </>
  );
  return { open: (service, method) => setCurrent({ service, method }), dialogs };
}

import { Badge } from '@mantine/core';
import { useEffect } from 'react';
import { microsoftShellTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { takeConnectionFlags } from './connectionFlags';
import { useMicrosoftStatus, useRefreshMicrosoft } from './useMicrosoftStatus';

/** The sidebar's '1' on Integrations while Microsoft email is connected (the product spec's screens). */
export function IntegrationsBadge() {
  const { data } = useMicrosoftStatus();
  if (!data?.connections.email.connected) return null;
  return (
    <Badge size="sm" circle aria-label="1 integration connected">
      1
    </Badge>
  );
}

/** On load: the flags a device flow left become the 'Microsoft Connection Active' toast. */
export function ConnectionFlagsWatcher() {
  const refresh = useRefreshMicrosoft();
  useEffect(() => {
    const service = takeConnectionFlags();
    if (!service) return;
    notify.success(microsoftShellTexts.connectionActiveTitle, microsoftShellTexts.connectionActiveBody(service));
    void refresh();
    // once, on load
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}

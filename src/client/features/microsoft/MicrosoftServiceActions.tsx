import { Badge, Button, Group, Menu } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { serviceNameOfKey, type MicrosoftServiceKey, type MicrosoftServiceName } from '../../../shared/schemas/microsoft';
import { microsoftTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { useMicrosoftStatus, useRefreshMicrosoft } from './useMicrosoftStatus';

/** The connected badge and the connect / disconnect actions of one Microsoft service. */
export function MicrosoftServiceActions(props: { service: MicrosoftServiceKey; onConnect: (service: MicrosoftServiceName, method: 'browser' | 'device') => void }) {
  const { data } = useMicrosoftStatus();
  const navigate = useNavigate();
  const refresh = useRefreshMicrosoft();
  const name = serviceNameOfKey(props.service);
  const state = data?.connections[props.service];
  const disconnect = useMutation(
    trpc.microsoft.disconnect.mutationOptions({
      onSuccess: () => {
        notify.success(microsoftTexts.disconnected(name));
        void refresh();
      },
      onError: (error) => notify.error(microsoftTexts.authErrorTitle, errorMessage(error, microsoftTexts.signInFailed)),
    }),
  );
  const badge = state?.connected ? (
    <Badge color="teal" variant="light">{microsoftTexts.connected}</Badge>
  ) : state?.needsReconnect ? (
    <Badge color="orange" variant="light">{microsoftTexts.needsReconnect}</Badge>
  ) : (
    <Badge color="gray" variant="light">{microsoftTexts.notConnectedBadge}</Badge>
  );
  return (
    <Group gap="xs" wrap="wrap" justify="flex-end">
      {badge}
      {state?.connected ? (
        <Button size="xs" variant="default" color="red" loading={disconnect.isPending} onClick={() => disconnect.mutate({ service: props.service })} aria-label={`${microsoftTexts.disconnect} ${name}`}>
          {microsoftTexts.disconnect}
        </Button>
      ) : data?.signInConfigured ? (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button size="xs" aria-label={`${microsoftTexts.connect} ${name}`}>{microsoftTexts.connect}</Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => props.onConnect(name, 'browser')}>{microsoftTexts.signInWithBrowser}</Menu.Item>
            {data.deviceCodeSignIn && <Menu.Item onClick={() => props.onConnect(name, 'device')}>{microsoftTexts.signInWithCode}</Menu.Item>}
            <Menu.Item onClick={() => void navigate({ to: '/microsoft-manual-auth', search: { service: name, advanced: true } })}>{microsoftTexts.advancedToken}</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ) : (
        <Button size="xs" renderRoot={(rootProps) => <Link {...rootProps} to="/microsoft-manual-auth" search={{ service: name }} />} aria-label={`${microsoftTexts.connect} ${name}`}>
          {microsoftTexts.connect}
        </Button>
      )}
    </Group>
  );
}

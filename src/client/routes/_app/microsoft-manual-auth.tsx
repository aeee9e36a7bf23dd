import { createFileRoute } from '@tanstack/react-router';
import { type MicrosoftServiceName, microsoftServiceNames } from '../../../shared/microsoftServiceNames';
import { ManualAuthPage } from '../../features/microsoft/ManualAuthPage';
import { optionalOneOf } from '../../lib/searchParams';

export const Route = createFileRoute('/_app/microsoft-manual-auth')({
  // ?service= on the connect page: anything else is the generic Microsoft connect. ?advanced=true
  // opens the pasted-token form at once (the Connect menu's 'Advanced: paste an access token').
  validateSearch: (search: Record<string, unknown>): { service?: MicrosoftServiceName; advanced?: true } => ({
    service: optionalOneOf(microsoftServiceNames, search.service),
    ...(search.advanced === true || search.advanced === 'true' ? { advanced: true as const } : {}),
  }),
  component: function ManualAuthRoute() {
    const { service, advanced } = Route.useSearch();
    return <ManualAuthPage service={service} advanced={advanced === true} />;
  },
});

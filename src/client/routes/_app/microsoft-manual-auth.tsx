import { createFileRoute } from '@tanstack/react-router';
import { type MicrosoftServiceName, microsoftServiceNames } from '../../../shared/microsoftServiceNames';
import { ManualAuthPage } from '../../features/microsoft/ManualAuthPage';
import { optionalOneOf } from '../../lib/searchParams';

export const Route = createFileRoute('/_app/microsoft-manual-auth')({
  // ?service= on the connect page: anything else is the generic Microsoft connect.
  validateSearch: (search: Record<string, unknown>): { service?: MicrosoftServiceName } => ({
    service: optionalOneOf(microsoftServiceNames, search.service),
  }),
  component: function ManualAuthRoute() {
    const { service } = Route.useSearch();
    return <ManualAuthPage service={service} />;
  },
});

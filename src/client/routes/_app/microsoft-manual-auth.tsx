import { createFileRoute } from '@tanstack/react-router';
import { connectPageSearchSchema } from '../../../shared/schemas/microsoft';
import { ManualAuthPage } from '../../features/microsoft/ManualAuthPage';

export const Route = createFileRoute('/_app/microsoft-manual-auth')({
  validateSearch: connectPageSearchSchema,
  component: function ManualAuthRoute() {
    const { service } = Route.useSearch();
    return <ManualAuthPage service={service} />;
  },
});

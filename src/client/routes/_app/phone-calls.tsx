import { createFileRoute } from '@tanstack/react-router';
import { PhonePage } from '../../features/phone/PhonePage';

// /phone-calls, titled Voice Assistant (the product spec's screens).
export const Route = createFileRoute('/_app/phone-calls')({
  loader: async ({ context }) => {
    const { trpc } = await import('../../lib/trpc');
    const session = await context.queryClient.ensureQueryData(trpc.auth.session.queryOptions());
    if (session.user) await context.queryClient.ensureQueryData(trpc.twilio.status.queryOptions()).catch(() => undefined);
  },
  component: PhonePage,
});

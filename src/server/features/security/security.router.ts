import { listSecurityEventsSchema } from '../../../shared/schemas/security.js';
import { accountProcedure, router } from '../../trpc/init.js';
import { listSecurityEvents } from './securityEvents.js';

// An account's security activity is read in its owner's own session: never with an API key (a
// leaked key must not learn where its owner signs in from) and never as a guest.
export const securityRouter = router({
  events: accountProcedure.input(listSecurityEventsSchema).query(({ ctx, input }) => listSecurityEvents(ctx, input)),
});

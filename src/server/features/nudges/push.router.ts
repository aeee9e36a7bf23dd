import { pushSubscriptionSchema, pushUnsubscribeSchema } from '../../../shared/schemas/nudges.js';
import { accountProcedure, router } from '../../trpc/init.js';
import { pushKey, subscribePush, unsubscribePush } from './push.js';

// A registered account's own browser session only: never an API key, a guest space or the demo template.
export const pushRouter = router({
  key: accountProcedure.query(({ ctx }) => pushKey(ctx)),
  subscribe: accountProcedure.input(pushSubscriptionSchema).mutation(({ ctx, input }) => subscribePush(ctx, input)),
  unsubscribe: accountProcedure.input(pushUnsubscribeSchema).mutation(({ ctx, input }) => unsubscribePush(ctx, input)),
});

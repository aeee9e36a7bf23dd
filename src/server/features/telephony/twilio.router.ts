import { phoneCallSchema } from '../../../shared/schemas/twilio.js';
import { accountProcedure, protectedProcedure, router } from '../../trpc/init.js';
import { placeCall, telephonyStatus } from './placeCall.js';

export const twilioRouter = router({
  status: protectedProcedure.query(({ ctx }) => telephonyStatus(ctx)),
  placeCall: accountProcedure.input(phoneCallSchema).mutation(({ ctx, input }) => placeCall(ctx, input)),
});

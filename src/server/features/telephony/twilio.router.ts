import { phoneCallSchema } from '../../../shared/schemas/twilio.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { placeCall, telephonyStatus } from './placeCall.js';

export const twilioRouter = router({
  status: protectedProcedure.query(({ ctx }) => telephonyStatus(ctx)),
  placeCall: protectedProcedure.input(phoneCallSchema).mutation(({ ctx, input }) => placeCall(ctx, input)),
});

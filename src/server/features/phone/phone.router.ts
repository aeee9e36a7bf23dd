import { confirmPhoneVerificationSchema, phonePinSchema, startPhoneVerificationSchema } from '../../../shared/schemas/phone.js';
import { accountProcedure, router } from '../../trpc/init.js';
import { removePhonePin, setPhonePin } from './phonePin.js';
import { confirmPhoneVerification, startPhoneVerification } from './phoneVerification.js';

// Phone verification and the phone PIN: a registered account's own session only.
export const phoneRouter = router({
  startVerification: accountProcedure.input(startPhoneVerificationSchema).mutation(({ ctx, input }) => startPhoneVerification(ctx, input)),
  confirmVerification: accountProcedure.input(confirmPhoneVerificationSchema).mutation(({ ctx, input }) => confirmPhoneVerification(ctx, input)),
  setPin: accountProcedure.input(phonePinSchema).mutation(({ ctx, input }) => setPhonePin(ctx, input)),
  removePin: accountProcedure.mutation(({ ctx }) => removePhonePin(ctx)),
});

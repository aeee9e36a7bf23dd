import { deleteAccountSchema, exportMyDataSchema } from '../../../shared/schemas/privacy.js';
import { browserSessionProcedure, router } from '../../trpc/init.js';
import { deleteAccount } from './deleteAccount.js';
import { exportMyData } from './exportUserData.js';

// The user's data rights (Settings, Privacy tab): a copy of everything, and deletion of everything.
export const privacyRouter = router({
  exportMyData: browserSessionProcedure.input(exportMyDataSchema).mutation(({ ctx, input }) => exportMyData(ctx, input)),
  deleteAccount: browserSessionProcedure.input(deleteAccountSchema).mutation(({ ctx }) => deleteAccount(ctx)),
});

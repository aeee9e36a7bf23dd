import { deleteAccountSchema, exportMyDataSchema } from '../../../shared/schemas/privacy.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { deleteAccount } from './deleteAccount.js';
import { exportMyData } from './exportUserData.js';

// The user's data rights (Settings, Privacy tab): a copy of everything, and deletion of everything.
export const privacyRouter = router({
  exportMyData: protectedProcedure.input(exportMyDataSchema).mutation(({ ctx, input }) => exportMyData(ctx, input)),
  deleteAccount: protectedProcedure.input(deleteAccountSchema).mutation(({ ctx }) => deleteAccount(ctx)),
});

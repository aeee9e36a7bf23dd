import { deleteAccountSchema, exportMyDataSchema } from '../../../shared/schemas/privacy.js';
import { privacyTexts } from '../../../shared/texts/index.js';
import { browserSessionProcedure, router } from '../../trpc/init.js';
import { deleteAccount } from './deleteAccount.js';
import { exportMyData } from './exportUserData.js';

// The user's data rights (Settings, Privacy tab): a copy of everything, and deletion of everything.
export const privacyRouter = router({
  exportMyData: browserSessionProcedure.input(exportMyDataSchema).mutation(({ ctx, input }) => exportMyData(ctx, input)),
  // A demo visitor who never wrote has no account of their own to delete: refused, nothing made.
  deleteAccount: browserSessionProcedure.meta({ visitor: { refused: privacyTexts.demoAccountNotDeletable } }).input(deleteAccountSchema).mutation(({ ctx }) => deleteAccount(ctx)),
});

import {
  callbackSchema,
  createFolderSchema,
  disconnectSchema,
  emailsPageSchema,
  manualTokenSchema,
  moveEmailsSchema,
  pollTokenSchema,
  serviceInputSchema,
} from '../../../shared/schemas/microsoft.js';
import { accountProcedure, protectedProcedure, router } from '../../trpc/init.js';
import { connectionStatus } from './connectionStatus.js';
import { disconnectService } from './disconnect.js';
import { createFolder, listEmails, listFolders, moveEmails } from './mail.js';
import { connectWithManualToken } from './manualToken.js';
import { finishBrowserSignIn, pollDeviceCode, startBrowserSignIn, startDeviceCode } from './signInFlows.js';

// Microsoft 365: the three ways to connect, the connection status, and the mail screens. All but
// the status need a registered account's own session (no guest space, no API key).
export const microsoftRouter = router({
  connectionStatus: protectedProcedure.query(({ ctx }) => connectionStatus(ctx)),
  manualToken: accountProcedure.input(manualTokenSchema).mutation(({ ctx, input }) => connectWithManualToken(ctx, input)),
  startBrowserSignIn: accountProcedure.input(serviceInputSchema).mutation(({ ctx, input }) => startBrowserSignIn(ctx, input)),
  finishBrowserSignIn: accountProcedure.input(callbackSchema).mutation(({ ctx, input }) => finishBrowserSignIn(ctx, input)),
  startDeviceCode: accountProcedure.input(serviceInputSchema).mutation(({ ctx, input }) => startDeviceCode(ctx, input)),
  pollDeviceCode: accountProcedure.input(pollTokenSchema).mutation(({ ctx, input }) => pollDeviceCode(ctx, input)),
  disconnect: accountProcedure.input(disconnectSchema).mutation(({ ctx, input }) => disconnectService(ctx, input)),
  emails: accountProcedure.input(emailsPageSchema).query(({ ctx, input }) => listEmails(ctx, input)),
  folders: accountProcedure.query(({ ctx }) => listFolders(ctx)),
  createFolder: accountProcedure.input(createFolderSchema).mutation(({ ctx, input }) => createFolder(ctx, input)),
  moveEmails: accountProcedure.input(moveEmailsSchema).mutation(({ ctx, input }) => moveEmails(ctx, input)),
});

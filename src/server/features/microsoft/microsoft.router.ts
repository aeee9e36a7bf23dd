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
import { protectedProcedure, router } from '../../trpc/init.js';
import { connectionStatus } from './connectionStatus.js';
import { disconnectService } from './disconnect.js';
import { createFolder, listEmails, listFolders, moveEmails } from './mail.js';
import { connectWithManualToken } from './manualToken.js';
import { finishBrowserSignIn, pollDeviceCode, startBrowserSignIn, startDeviceCode } from './signInFlows.js';

// Microsoft 365: the three ways to connect, the connection status, and the mail screens.
export const microsoftRouter = router({
  connectionStatus: protectedProcedure.query(({ ctx }) => connectionStatus(ctx)),
  manualToken: protectedProcedure.input(manualTokenSchema).mutation(({ ctx, input }) => connectWithManualToken(ctx, input)),
  startBrowserSignIn: protectedProcedure.input(serviceInputSchema).mutation(({ ctx, input }) => startBrowserSignIn(ctx, input)),
  finishBrowserSignIn: protectedProcedure.input(callbackSchema).mutation(({ ctx, input }) => finishBrowserSignIn(ctx, input)),
  startDeviceCode: protectedProcedure.input(serviceInputSchema).mutation(({ ctx, input }) => startDeviceCode(ctx, input)),
  pollDeviceCode: protectedProcedure.input(pollTokenSchema).mutation(({ ctx, input }) => pollDeviceCode(ctx, input)),
  disconnect: protectedProcedure.input(disconnectSchema).mutation(({ ctx, input }) => disconnectService(ctx, input)),
  emails: protectedProcedure.input(emailsPageSchema).query(({ ctx, input }) => listEmails(ctx, input)),
  folders: protectedProcedure.query(({ ctx }) => listFolders(ctx)),
  createFolder: protectedProcedure.input(createFolderSchema).mutation(({ ctx, input }) => createFolder(ctx, input)),
  moveEmails: protectedProcedure.input(moveEmailsSchema).mutation(({ ctx, input }) => moveEmails(ctx, input)),
});

import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { createFolderSchema, emailsPageSchema, moveEmailsSchema } from '../../../shared/schemas/microsoft.js';
import { microsoftTexts } from '../../../shared/texts/microsoft.js';
import type { AuthedContext } from '../../trpc/context.js';
import { asPublicError } from './graphErrors.js';
import type { Mailbox } from './mailbox.js';
import { openMicrosoft365 } from './microsoft365.js';

// The mail screens (the product spec's screens): emails with paging, folders, folder creation and moves,
// always in the signed-in user's own mailbox.

async function mailboxOf(ctx: AuthedContext): Promise<Mailbox> {
  const { mail: mailbox } = await openMicrosoft365(ctx.deps, ctx.em, ctx.user.id);
  if (!mailbox) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: microsoftTexts.notConnected });
  return mailbox;
}

export async function listEmails(ctx: AuthedContext, input: z.infer<typeof emailsPageSchema>) {
  const mailbox = await mailboxOf(ctx);
  try {
    const page = await mailbox.graph.messagesPage({ folderId: 'inbox', pageSize: input.pageSize, ...(input.pageToken ? { pageLink: input.pageToken } : {}) });
    return { success: true as const, emails: page.messages, nextPageToken: page.nextLink, message: microsoftTexts.emailsLoaded(page.messages.length) };
  } catch (error) {
    throw asPublicError(error, microsoftTexts.fetchEmailsError);
  }
}

export async function listFolders(ctx: AuthedContext) {
  const mailbox = await mailboxOf(ctx);
  try {
    const folders = await mailbox.graph.folders();
    return { success: true as const, folders, message: `${folders.length} folders` };
  } catch (error) {
    throw asPublicError(error, microsoftTexts.fetchFoldersError);
  }
}

export async function createFolder(ctx: AuthedContext, input: z.infer<typeof createFolderSchema>) {
  const mailbox = await mailboxOf(ctx);
  try {
    const folder = await mailbox.graph.createFolder(input.displayName, input.parentFolderId);
    return { success: true as const, folder, message: microsoftTexts.folderCreated(folder.displayName) };
  } catch (error) {
    throw asPublicError(error, microsoftTexts.createFolderError);
  }
}

export async function moveEmails(ctx: AuthedContext, input: z.infer<typeof moveEmailsSchema>) {
  const mailbox = await mailboxOf(ctx);
  const ids = [...new Set(input.messageIds)];
  try {
    const results = await mailbox.graph.moveMessages(ids, input.destinationFolderId);
    const moved = results.filter((r) => r.success).length;
    return { success: moved === results.length, moved, results, message: microsoftTexts.movedSummary(moved, results.length) };
  } catch (error) {
    throw asPublicError(error, microsoftTexts.moveError);
  }
}

import type { SentEmailsResponse } from '../../../shared/schemas/writingStyle.js';
import { writingStyleTexts } from '../../../shared/texts/index.js';
import { readSentMail, type WritingStyleContext } from './readSentMail.js';
import type { SentMailOpener } from './sentMail.js';

/** GET /api/writing-analysis/sent-emails: how many sent emails an analysis would read. */
export async function countSentEmails(ctx: WritingStyleContext, open?: SentMailOpener): Promise<SentEmailsResponse> {
  const emails = await readSentMail(ctx, open);
  return { success: true, count: emails.length, message: writingStyleTexts.sentEmailsCount(emails.length) };
}

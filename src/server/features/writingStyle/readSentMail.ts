import { TRPCError } from '@trpc/server';
import { writingStyleLimits } from '../../../shared/constants.js';
import { writingStyleTexts } from '../../../shared/texts/index.js';
import type { AuthedContext } from '../../trpc/context.js';
import { openSentMail, type SentEmail, type SentMailOpener } from './sentMail.js';

export type WritingStyleContext = Pick<AuthedContext, 'deps' | 'em' | 'user'>;

/**
 * Up to the 50 most recent sent emails. Without a mail connection: PRECONDITION_FAILED, so that
 * neither the count nor the analysis succeeds; a mailbox that fails: BAD_GATEWAY.
 */
export async function readSentMail(ctx: WritingStyleContext, open: SentMailOpener = openSentMail): Promise<SentEmail[]> {
  const source = await open(ctx.deps, ctx.em, ctx.user.id);
  if (!source) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: writingStyleTexts.notConnected });
  try {
    const emails = await source.sentEmails(writingStyleLimits.maxSentEmails);
    return emails.slice(0, writingStyleLimits.maxSentEmails);
  } catch (cause) {
    if (cause instanceof TRPCError) throw cause;
    ctx.deps.log.warn({ err: cause, userId: ctx.user.id }, 'reading sent mail failed');
    throw new TRPCError({ code: 'BAD_GATEWAY', message: writingStyleTexts.sentEmailsFailed, cause });
  }
}

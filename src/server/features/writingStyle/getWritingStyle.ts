import type { WritingStyleResponse } from '../../../shared/schemas/writingStyle.js';
import { writingStyleTexts } from '../../../shared/texts/index.js';
import type { WritingStyleContext } from './readSentMail.js';
import { openSentMail, type SentMailOpener } from './sentMail.js';
import { readWritingStyle } from './writingStyleStore.js';

/** GET /api/writing-analysis/writing-style: the signed-in user's profile, if any. */
export async function getWritingStyle(ctx: WritingStyleContext, open: SentMailOpener = openSentMail): Promise<WritingStyleResponse> {
  const [writingStyle, source] = await Promise.all([readWritingStyle(ctx.em, ctx.user.id), open(ctx.deps, ctx.em, ctx.user.id)]);
  return {
    success: true,
    hasWritingStyle: writingStyle !== null,
    writingStyle,
    lastUpdated: writingStyle?.lastUpdated ?? null,
    message: writingStyle ? writingStyleTexts.profileFound : writingStyleTexts.noProfileYet,
    mailConnected: source !== null,
  };
}

import { TRPCError } from '@trpc/server';
import { writingStyleLimits } from '../../../shared/constants.js';
import type { AnalyzeStyleResponse, ToneSource } from '../../../shared/schemas/writingStyle.js';
import { writingStyleTexts } from '../../../shared/texts/index.js';
import { analyzeStyle } from './analyzeStyle.js';
import { describeToneWithModel } from './describeTone.js';
import { readSentMail, type WritingStyleContext } from './readSentMail.js';
import type { SentMailOpener } from './sentMail.js';
import { readWritingStyle, saveWritingStyle } from './writingStyleStore.js';
import { modelRegionOf } from '../../db/organisationPolicy.js';

/**
 * POST /api/writing-analysis/analyze-style (the product spec's states and transitions): read the sent mail, stop with
 * nothing stored below 5 emails, analyse, and replace the profile with lastUpdated now.
 */
export async function analyzeWritingStyle(ctx: WritingStyleContext, open?: SentMailOpener): Promise<AnalyzeStyleResponse> {
  const emails = await readSentMail(ctx, open);
  if (emails.length < writingStyleLimits.minSentEmails) {
    throw new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: writingStyleTexts.notEnoughBody });
  }
  const analysis = analyzeStyle(emails);

  let tone = analysis.markerTone;
  let toneSource: ToneSource = 'markers';
  try {
    const described = await describeToneWithModel(ctx.deps.coach, analysis.cleaned, ctx.deps.config.modelStallTimeoutMs, undefined, await modelRegionOf(ctx.em, ctx.user.id));
    if (described) {
      tone = described;
      toneSource = 'model';
    }
  } catch (error) {
    // The markers still describe the tone; the profile says which one it is.
    ctx.deps.log.warn({ err: error }, 'the model could not describe the tone; using the markers');
  }

  await saveWritingStyle(ctx.em, ctx.user.id, {
    tone,
    toneSource,
    commonPhrases: analysis.commonPhrases,
    greeting: analysis.greeting,
    signOff: analysis.signOff,
    structure: analysis.structure,
    length: analysis.length,
    emailsAnalyzed: emails.length,
    lastUpdated: new Date(),
  });
  const writingStyle = (await readWritingStyle(ctx.em, ctx.user.id))!;
  return { success: true, writingStyle, emailsAnalyzed: emails.length, message: writingStyleTexts.analysisDone(emails.length) };
}

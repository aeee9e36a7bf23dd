import { checkNameValues, type RehearsalReport } from '../../../shared/schemas/rehearsals.js';
import { rehearsalTexts } from '../../../shared/texts/rehearsals.js';

// A rehearsal's report as the coach's message posted into its chat: by the feedback procedure
// (rehearsals.ts) and for the demo's example (auth/demoExamples.ts).

/** The report as the coach's message in the chat. */
export function reportText(report: RehearsalReport): string {
  const t = rehearsalTexts;
  const lines = [
    `**${t.reportHeading}**`,
    '',
    `- ${t.talkShare(Math.round(report.talkRatio * 100))}`,
    `- ${t.fillers(report.fillerWords.count)}${report.fillerWords.examples.length ? `: ${report.fillerWords.examples.map((e) => `“${e}”`).join(', ')}` : ''}`,
    `- ${t.longestTurn(report.longestTurnWords)}`,
    `- ${t.questions(report.questionsAsked)}`,
  ];
  if (report.checks && report.verdict) {
    lines.push('', `**${t.checksHeading}**`, report.verdict.passed ? t.verdictPassed : t.verdictFailed(t.checkLabels[report.verdict.failedCheck!]));
    for (const name of checkNameValues) {
      const check = report.checks[name];
      lines.push(`- ${t.checkStatus[check.status]}: ${t.checkLabels[name]}${check.status === 'failed' && check.quote ? ` (“${check.quote}”)` : ''}`);
    }
    if (report.wentWrong) lines.push('', `**${t.wentWrongHeading}:** ${t.wentWrongTurn(report.wentWrong.userTurn)}, “${report.wentWrong.quote}”. ${t.tryAgain} under it takes it again.`);
  }
  const judged = report.judged;
  if (!judged) {
    lines.push('', t.judgedUnavailable);
    return lines.join('\n');
  }
  lines.push('', `**${t.goalMet[judged.goalMet]}.** ${judged.goalReason}`);
  if (judged.strengths.length) lines.push('', `**${t.strengthsHeading}**`, ...judged.strengths.map((s) => `- ${s}`));
  if (judged.improvements.length) lines.push('', `**${t.improvementsHeading}**`, ...judged.improvements.map((i) => `- “${i.quote}” → ${i.better}`));
  return lines.join('\n');
}

// Writing style analysis budget: the deterministic analysis (cleaning, greeting, sign-off,
// phrases, structure, length, tone markers) of 1,000 sent emails in under 200 ms.
//
// The mailbox mixes the corpus's four styles (formal, friendly, terse, bullet-heavy, with quoted
// replies, forwards and signatures), each email made distinct by its index so that nothing is
// shared between copies. One cold run, then warm runs; the median of the warm runs is checked.
//
// Run: npm run bench:style        Exits 1 when the median is over the budget.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { analyzeStyle } from '../src/server/features/writingStyle/analyzeStyle.js';
import type { SentEmail } from '../src/server/features/writingStyle/sentMail.js';
import { corpusStyles, sentMailbox } from '../test/fixtures/sentMailCorpus.js';

const budgetMs = 200;
const emailCount = Number(process.env.BENCH_EMAILS ?? 1000);
const warmRuns = Number(process.env.BENCH_RUNS ?? 20);

const perStyle = Math.ceil(emailCount / corpusStyles.length);
const emails: SentEmail[] = corpusStyles
  .flatMap((style) => sentMailbox(style, perStyle))
  .slice(0, emailCount)
  .map((email, i) => ({ ...email, id: `bench-${i}`, body: email.body.replace(/\n\n/, `\n\nReference ${i}: item ${i * 7} of batch ${i % 13}.\n\n`) }));
const totalChars = emails.reduce((sum, email) => sum + email.body.length, 0);

function run(): number {
  const start = performance.now();
  const analysis = analyzeStyle(emails);
  const elapsed = performance.now() - start;
  if (analysis.emailsAnalyzed !== emails.length) throw new Error('not every email was analysed');
  return elapsed;
}

const cold = run();
const warm = Array.from({ length: warmRuns }, run).sort((a, b) => a - b);
const median = warm[Math.floor(warm.length / 2)]!;
const p95 = warm[Math.min(warm.length - 1, Math.ceil(warm.length * 0.95) - 1)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

console.log(`Writing style analysis of ${emails.length} sent emails (${(totalChars / 1024).toFixed(0)} KB of text)`);
console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'})`);
console.log(`| run | time |\n|---|---:|\n| cold (first) | ${fmt(cold)} |\n| warm median (${warmRuns} runs) | **${fmt(median)}** |\n| warm p95 | ${fmt(p95)} |\n| warm max | ${fmt(warm.at(-1)!)} |\n| budget | ${budgetMs} ms |`);
if (median > budgetMs) {
  console.error(`Over budget: median ${fmt(median)} > ${budgetMs} ms`);
  process.exit(1);
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { EvalModel } from './model.js';
import { runEvaluation } from './play.js';
import { baselinePath, formatScorecard, gateProblems, loadScripts, readBaseline, resultsPath, scorecardOf, type Baseline } from './scorecard.js';

// npm run eval:coach [-- --ci] [--write-baseline] [--markdown] [--only text] [--concurrency n] [--out file]
// Plays every script of eval/coach/scripts/ through the real server, prints the scorecard and
// writes the results as JSON. --ci (or EVAL_CI=1) exits 1 when the safety gate is below 100%, the
// fallback answers more than 2% of in-context answers, or any dimension falls below the committed
// baseline. With EVAL_MODEL_BASE_URL, EVAL_MODEL_API_KEY and EVAL_MODEL_NAME the coach is that
// model, with a simulated client and a model judge.

const { values } = parseArgs({
  options: {
    ci: { type: 'boolean', default: process.env.EVAL_CI === '1' || process.env.EVAL_CI === 'true' },
    'write-baseline': { type: 'boolean', default: false },
    markdown: { type: 'boolean', default: false },
    only: { type: 'string' },
    concurrency: { type: 'string', default: process.env.EVAL_CONCURRENCY ?? '4' },
    out: { type: 'string', default: resultsPath },
    verbose: { type: 'boolean', default: false },
  },
});

function evalModel(): EvalModel | undefined {
  const { EVAL_MODEL_BASE_URL: baseUrl, EVAL_MODEL_API_KEY: apiKey, EVAL_MODEL_NAME: name } = process.env;
  if (!baseUrl && !apiKey && !name) return undefined;
  if (!baseUrl || !apiKey || !name) {
    console.error('The model mode needs all three of EVAL_MODEL_BASE_URL, EVAL_MODEL_API_KEY and EVAL_MODEL_NAME.');
    process.exit(2);
  }
  return { baseUrl, apiKey, name };
}

const model = evalModel();
const scripts = loadScripts().filter((s) => !values.only || s.id.includes(values.only));
const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`eval:coach: ${scripts.length} scripts, ${model ? `model ${model.name}` : 'the offline coach'}; load average ${load} on ${os.cpus().length} cores`);
const run = await runEvaluation(scripts, { concurrency: Number(values.concurrency), model, log: values.verbose ? (line) => console.log(line) : undefined });
const card = scorecardOf(run.checks);
const baseline = readBaseline();

console.log('');
console.log(formatScorecard(card, { markdown: values.markdown, baseline: model ? null : baseline }));
console.log('');
const failures = run.checks.filter((c) => !c.pass);
for (const f of failures.slice(0, values.verbose ? failures.length : 25)) console.log(`  ✗ [${f.dimension}] ${f.script}${f.turn !== undefined ? ` turn ${f.turn + 1}` : ''} ${f.check}: ${f.detail ?? ''}`);
if (failures.length > 25 && !values.verbose) console.log(`  … and ${failures.length - 25} more (--verbose, or the JSON)`);
console.log(`${run.checks.length} checks, ${failures.length} failed, ${run.errors.length} scripts not played; ${run.seconds.toFixed(1)} s; load average now ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

fs.mkdirSync(path.dirname(values.out!), { recursive: true });
fs.writeFileSync(values.out!, `${JSON.stringify({ mode: run.mode, model: model?.name ?? null, finishedAt: new Date().toISOString(), seconds: run.seconds, scorecard: card, checks: run.checks, errors: run.errors, transcripts: run.transcripts }, null, 2)}\n`);
console.log(`results: ${path.relative(process.cwd(), values.out!)}`);

if (values['write-baseline']) {
  const written: Baseline = { mode: run.mode, writtenAt: new Date().toISOString(), dimensions: card };
  fs.writeFileSync(baselinePath, `${JSON.stringify(written, null, 2)}\n`);
  console.log(`baseline written: ${path.relative(process.cwd(), baselinePath)}`);
}

if (values.ci) {
  // The model mode has no committed baseline: only the floors hold there.
  const problems = gateProblems(card, model ? { mode: 'model', writtenAt: '', dimensions: {} } : baseline);
  if (run.errors.length) problems.push(`${run.errors.length} scripts could not be played`);
  if (problems.length) {
    console.error(`eval:coach --ci failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log('eval:coach --ci: the gate passes');
}
process.exit(0);

// The safety screen's budget: it runs on every user turn, before any model is asked, and may add at
// most 2 ms to a turn at p99 on a 2,000-character message.
//
// What a turn pays is the screen (screenMessage: the idioms removed, then every category's phrases
// read) and the safety line's decision around it (createSafetyLine().reply with a model that
// answers at once). Each message is 2,000 characters of workplace text made distinct by its index
// (nothing shared between messages, so no engine cache helps), of four kinds: an ordinary message
// (every phrase is read: the most work), one full of look-alikes ("killing it", "legal team"), one
// with a crisis at its very end, and one with a harassment line in the middle. One cold call
// first (the expressions compiled), then BENCH_RUNS runs of BENCH_MESSAGES turns each; each run's
// median, p99 and worst per turn, and the machine's load average before and after.
//
// Run: npm run bench:safety        Exits 1 when a run's p99 is over the budget.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createSafetyLine } from '../src/server/features/coach/safety/safetyLine.js';
import { screenMessage } from '../src/server/features/coach/safety/screen.js';
import { defaultSafetyConfig } from '../src/server/crisisResources.js';

const budgetMs = 2;
const messageChars = 2_000;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const perRun = Number(process.env.BENCH_MESSAGES ?? 4_000);

const ordinary = [
  'We moved the release review to Thursday so the vendor can send the final build.',
  'My manager asked me to own the roadmap for the next two quarters and I am not sure where to start.',
  'The team keeps missing the sprint goal because of interruptions from support tickets.',
  'I want to give clearer feedback to a colleague who interrupts me in planning meetings.',
  'Our stakeholders want a weekly update but nobody reads the long version.',
  'I have three one-to-ones tomorrow and want to prepare a better agenda for each.',
];
const lookAlikes = [
  "I'm killing it this quarter and the deadline is killing me anyway.",
  'Our legal team approved the launch, shoot me a message when the draft is ready.',
  'The project died in review and the budget is dead, but I could kill for a coffee.',
  "I'm sick of meetings; let us touch base on Friday about the tech debt.",
];
const kinds = {
  ordinary: (i: number) => filled(ordinary, i, ''),
  lookAlikes: (i: number) => filled([...lookAlikes, ...ordinary], i, ''),
  crisisAtEnd: (i: number) => filled(ordinary, i, " Some days I don't want to be here anymore."),
  harassmentInMiddle: (i: number) => {
    const text = filled(ordinary, i, '');
    return `${text.slice(0, 1000)} He touched my leg under the table. ${text.slice(1000)}`.slice(0, messageChars);
  },
};

/** A message of exactly `messageChars` characters: sentences from `pool`, each marked with the index, then `ending`. */
function filled(pool: string[], index: number, ending: string): string {
  let text = '';
  let n = 0;
  while (text.length < messageChars - ending.length) {
    text += `${pool[(index + n) % pool.length]} (item ${index}-${n}) `;
    n++;
  }
  return text.slice(0, messageChars - ending.length) + ending;
}

const line = createSafetyLine(defaultSafetyConfig);
async function* instant(): AsyncIterable<string> {
  yield 'ok';
}

/**
 * One turn's safety work: the screen and the line's decision, its first delta read. Its wall time
 * (what the turn waits, including any time the process waited for a core) and its CPU time (what
 * the screen itself costs, in microseconds of this process's CPU).
 */
async function turn(text: string): Promise<{ wall: number; cpu: number }> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const reply = line.reply({ latest: text, role: 'coach', spoken: false, country: async () => null, modelKind: 'openai' }, instant);
  const first = await reply.deltas[Symbol.asyncIterator]().next();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  if (first.done) throw new Error('the line gave no reply');
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;
const fmt = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(', ');

// The messages' kinds stated once, and each checked to be screened as expected.
const kindNames = Object.keys(kinds) as Array<keyof typeof kinds>;
const expected = { ordinary: null, lookAlikes: null, crisisAtEnd: 'self_harm', harassmentInMiddle: 'harassment' } as const;
for (const kind of kindNames) {
  const sample = kinds[kind](0);
  if (sample.length !== messageChars) throw new Error(`${kind}: ${sample.length} characters, not ${messageChars}`);
  if (screenMessage(sample) !== expected[kind]) throw new Error(`${kind}: screened as ${screenMessage(sample)}, not ${expected[kind]}`);
}

console.log(`The safety screen on ${messageChars}-character messages: ${runs} runs of ${perRun} turns (${kindNames.join(', ')} in turn)`);
console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average before: ${load()}`);
const coldStart = performance.now();
screenMessage(kinds.ordinary(-1));
console.log(`cold first screen: ${fmt(performance.now() - coldStart)}`);

const rows: string[] = [];
let over = false;
for (let r = 0; r < runs; r++) {
  const messages = Array.from({ length: perRun }, (_, i) => kinds[kindNames[i % kindNames.length]!](r * perRun + i));
  const walls: number[] = [];
  const cpus: number[] = [];
  for (const text of messages) {
    const { wall, cpu } = await turn(text);
    walls.push(wall);
    cpus.push(cpu);
  }
  walls.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const wallP99 = percentile(walls, 0.99);
  const cpuP99 = percentile(cpus, 0.99);
  // The budget is what the screen adds to a turn: its CPU time. On a machine with a core free the
  // wall time is the same; on an overloaded one it adds the waits for a core, which any code pays.
  if (cpuP99 > budgetMs) over = true;
  rows.push(
    `| ${r + 1} | ${fmt(percentile(cpus, 0.5))} | **${fmt(cpuP99)}** | ${fmt(cpus.at(-1)!)} | ${fmt(percentile(walls, 0.5))} | ${fmt(wallP99)} | ${fmt(walls.at(-1)!)} | ${load()} |`,
  );
}
console.log(
  `| run | CPU median | CPU p99 | CPU worst | wall median | wall p99 | wall worst | load average (1, 5, 15 min) after |\n|---|---:|---:|---:|---:|---:|---:|---|\n${rows.join('\n')}`,
);
console.log(`budget: p99 <= ${budgetMs} ms of CPU per turn`);
if (over) {
  console.error(`Over budget: a run's CPU p99 is over ${budgetMs} ms`);
  process.exit(1);
}

// Meeting debriefs: budget 100 ms to compute the debrief of a 60-minute meeting (1,200 cues,
// 8 speakers) once its transcript has arrived, and 50 ms for the trends of a week of 40
// debriefed meetings, read from one query.
//
//   - compute: the WebVTT parsed (the W3C parser), the report computed, the cues merged into turns
//              and the offline coach's strengths and moments, median of 20 (after 3 warm-ups);
//   - trends:  GET /api/debriefs/trends on the real app (embedded PGlite in a temporary directory)
//              with 40 debriefs written straight into the database, median of 20.
//
// Run: npx tsx bench/debrief.ts     Exits 1 when over budget.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/server/config.js';
import { offlineDebriefCoach } from '../src/server/features/debriefs/coachDebrief.js';
import { computeDebrief, turnsOf } from '../src/server/features/debriefs/computeDebrief.js';
import { parseTranscript } from '../src/server/features/debriefs/transcript.js';
import { startServer } from '../src/server/server.js';

const computeBudgetMs = 100;
const trendsBudgetMs = 50;
const cues = 1_200;
const speakers = ['Alex Morgan', 'Priya Shah', 'Marcus Chen', 'Tom Becker', 'Elena Rossi', 'Sam Lee', 'Kim Park', 'Dana Reyes'];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const sentences = [
  'Um, so I just wanted to check where we are on the release.',
  'What would make this a yes for you?',
  "That's fair, the review comes first.",
  'Can you send me the numbers by Friday?',
  'The pipeline takes forty minutes and the flaky tests cost us a deploy in five.',
  "I'm not sure we can take that on this sprint, but let's see.",
  'We deploy twice a week now and the goal is daily, basically.',
];
const clock = (seconds: number) => {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = (seconds % 60).toFixed(3).padStart(6, '0');
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${s}`;
};

/** 60 minutes in 1,200 cues of 3 s, 8 speakers in runs of one to three cues, some overlapping. */
function meetingTranscript(): string {
  const parts = ['WEBVTT', ''];
  let speaker = 0;
  for (let i = 0; i < cues; i++) {
    if (i % 3 === 0) speaker = (speaker + 1 + (i % 5)) % speakers.length;
    const start = i * 3 - (i % 7 === 0 ? 0.5 : 0);
    parts.push(`meeting/${i}-0`, `${clock(Math.max(0, start))} --> ${clock(i * 3 + 3)}`, `<v ${speakers[speaker]}>${sentences[i % sentences.length]}</v>`, '');
  }
  return parts.join('\n');
}

const vtt = meetingTranscript();
const times: number[] = [];
let report;
for (let run = 0; run < 23; run++) {
  const started = performance.now();
  const parsed = parseTranscript(vtt);
  report = computeDebrief(parsed, speakers[0]!, ['Release status', 'Deployment goal', 'Blockers']);
  offlineDebriefCoach(turnsOf(parsed, speakers[0]!), report);
  if (run >= 3) times.push(performance.now() - started);
}
const computeMs = median(times);
console.log(`compute: ${cues} cues, ${speakers.length} speakers (${(vtt.length / 1024).toFixed(0)} KiB of WebVTT): median ${computeMs.toFixed(1)} ms (budget ${computeBudgetMs} ms); talk share ${report!.you.talkShare}`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-bench-debrief-'));
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', DEMO_MODE: 'false', LOG_LEVEL: 'silent', SESSION_SECRET: 'bench-session-secret-long-enough-0123456789', RATE_LIMIT_REGISTER_PER_HOUR: '0' });
const server = await startServer(config, { log: pino({ level: 'silent' }) });
let trendsMs = Number.POSITIVE_INFINITY;
try {
  const registered = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ username: 'bench_debrief', password: 'bench-password', fullName: 'Alex Morgan' }),
  });
  const userId = ((await registered.json()) as { user: { id: number } }).user.id;
  const cookie = registered.headers.getSetCookie().map((c) => c.split(';')[0]!).join('; ');
  const coach = { by: 'offline', strengths: [], moments: [] };
  const connection = server.deps.orm.em.fork().getConnection();
  for (let i = 0; i < 40; i++) {
    await connection.execute(
      "insert into debrief (owner_id, event_id, subject, start_at, end_at, report, coach, created_at, updated_at) values (?, ?, ?, now() - (? || ' hours')::interval, now() - (? || ' hours')::interval + interval '1 hour', ?, ?, now(), now())",
      [userId, `AAMk-bench-${i}`, `Meeting ${i % 6}`, 168 - i * 4, 168 - i * 4, JSON.stringify(report), JSON.stringify(coach)],
    );
  }
  const timings: number[] = [];
  for (let run = 0; run < 23; run++) {
    const started = performance.now();
    const res = await fetch(`${server.url}/api/debriefs/trends`, { headers: { cookie, origin: server.url } });
    const body = (await res.json()) as { points: unknown[] };
    if (res.status !== 200 || body.points.length !== 40) throw new Error(`trends answered ${res.status} with ${body.points.length} points`);
    if (run >= 3) timings.push(performance.now() - started);
  }
  trendsMs = median(timings);
  console.log(`trends: 40 debriefed meetings, GET /api/debriefs/trends: median ${trendsMs.toFixed(1)} ms (budget ${trendsBudgetMs} ms)`);
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(computeMs <= computeBudgetMs && trendsMs <= trendsBudgetMs ? 0 : 1);

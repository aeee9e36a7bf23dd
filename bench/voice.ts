// Voice benchmark (method in bench/README.md, runs in bench/results/voice.md; issue 25), with fake providers that
// take realistic times: transcription 300 ms, the model's first token 400 ms then 30 tokens a
// second, the first byte of speech 200 ms.
//  1. The phone path: a fake Twilio ConversationRelay client on the relay WebSocket. From the final
//     prompt to the first text token, against the model's first token: budget first token + 50 ms.
//  2. The browser path: the built app in Chromium with a fake microphone (a spoken sentence, then
//     silence, looped). From the end of the user's turn to the first reply audio: budget p50 ≤ 1.2 s,
//     p95 ≤ 1.6 s. The time from the real end of the speech (the turn's 700 ms of silence before)
//     is printed beside it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { XMLParser } from 'fast-xml-parser';
import { UserSettings } from '../src/server/db/entities/UserSettings.js';
import { startFakeOpenAI } from '../test/fakes/openai.js';
import { postSignedWebhook, startFakeTwilio } from '../test/fakes/twilio/index.js';
import { connectRelay, newCallSid } from '../test/fakes/twilio/relay.js';
import { writeFakeMicrophoneWav } from '../test/e2e/support/fakeMicrophone.js';
import { signUp } from '../test/helpers/clients.js';
import { startTestServer } from '../test/helpers/server.js';
import { freePort } from './support/freePort.js';
import { productionNodeArgs } from './support/productionStart.js';

const relayTurns = Number(process.env.BENCH_VOICE_RELAY_TURNS ?? 20);
const browserTurns = Number(process.env.BENCH_VOICE_BROWSER_TURNS ?? 10);
const realistic = { transcriptionDelayMs: 300, firstTokenDelayMs: 400, tokenDelayMs: Math.round(1000 / 30), speechFirstByteDelayMs: 200 };
const reply = 'Start by naming the outcome you want. Then plan your first sentence, and say it out loud once.';
const tokens = reply.split(/(?<=\s)(?=\S)/);

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(0)} ms`;
let failed = false;

// 1. The relay path.
{
  const fake = await startFakeOpenAI();
  const twilio = await startFakeTwilio();
  const publicUrl = 'https://coach.example.com';
  fake.behave({ tokens, ...realistic });
  const server = await startTestServer({
    DEMO_MODE: 'false',
    OPENAI_API_KEY: 'sk-bench-key-123456',
    OPENAI_BASE_URL: fake.url,
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_PHONE_NUMBER: '+15550001111',
    TWILIO_API_BASE_URL: twilio.url,
    PUBLIC_URL: publicUrl,
    RATE_LIMIT_CHAT_PER_MINUTE: '0',
    MODEL_DAILY_QUOTA: '0',
  });
  try {
    const { user } = await signUp(server.url, 'bench-relay', 'Bench Relay');
    const em = server.deps.orm.em.fork();
    em.create(UserSettings, { user: user.id, phone: '+15552223333', phoneVerifiedAt: new Date() });
    await em.flush();
    const callSid = newCallSid();
    const answered = await postSignedWebhook({
      authToken: twilio.authToken,
      signedUrl: `${publicUrl}/api/twilio/voice/incoming`,
      targetUrl: `${server.url}/api/twilio/voice/incoming`,
      params: { CallSid: callSid, From: '+15552223333', To: '+15550001111', Direction: 'inbound', StirVerstat: 'TN-Validation-Passed-A' },
    });
    const relay = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(answered.text).Response.Connect.ConversationRelay;
    const client = await connectRelay({ targetUrl: `${server.url.replace('http', 'ws')}/api/twilio/relay`, signedUrl: relay['@url'], authToken: twilio.authToken });
    client.setup({ callSid, callId: relay.Parameter['@value'], from: '+15552223333' });
    const totals: number[] = [];
    const overheads: number[] = [];
    // The call ends after 20 turns; the first two warm up.
    for (let i = 0; i < Math.min(relayTurns + 2, 19); i++) {
      const requestIndex = fake.requests.length;
      const sentAt = client.prompt(`Question ${i}: how do I start?`);
      const answer = await client.nextReply();
      const firstToken = answer.tokens[0]!.at;
      const modelFirst = fake.tokenWrites.find((w) => w.requestIndex === requestIndex && w.index === 0)!.writtenAtNs;
      if (i < 2) continue;
      totals.push(Number(firstToken - sentAt) / 1e6);
      overheads.push(Number(firstToken - modelFirst) / 1e6);
    }
    client.close();
    const p50 = quantile(totals, 0.5);
    const p95 = quantile(totals, 0.95);
    const worstOverhead = Math.max(...overheads);
    console.log(`relay path (fake Twilio client, ${totals.length} turns): final prompt to first text token p50 ${ms(p50)}, p95 ${ms(p95)}`);
    console.log(`  after the model's first token: p50 ${ms(quantile(overheads, 0.5))}, p95 ${ms(quantile(overheads, 0.95))}, max ${ms(worstOverhead)} (budget 50 ms)`);
    if (quantile(overheads, 0.95) > 50) failed = true;
  } finally {
    await server.stop();
    await twilio.close();
    await fake.close();
  }
}

// 2. The browser path: the built app (npm start) and Chromium with a fake microphone.
{
  const root = path.resolve(import.meta.dirname, '..');
  if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) throw new Error('Run `npm run build` first');
  const fake = await startFakeOpenAI();
  // Each sentence's speech lasts 1 s: the reply has ended before the microphone speaks again.
  fake.behave({ tokens, ...realistic, speechDurationMs: 1000, speechChunks: 5 });
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-voice-'));
  const port = await freePort();
  const app = spawn(process.execPath, productionNodeArgs(root), {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(runDir, 'data'),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'bench-session-secret-long-enough-0123456789abcdef',
      DEMO_MODE: 'true',
      OPENAI_API_KEY: 'sk-bench-key-123456',
      OPENAI_BASE_URL: fake.url,
      RATE_LIMIT_CHAT_PER_MINUTE: '0',
      RATE_LIMIT_VOICE_PER_MINUTE: '0',
      MODEL_DAILY_QUOTA: '0',
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if ((await fetch(`${baseUrl}/readyz`).catch(() => null))?.ok) break;
      if (i > 600) throw new Error('the app did not start');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const wav = writeFakeMicrophoneWav(path.join(runDir, 'microphone.wav'));
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`, '--autoplay-policy=no-user-gesture-required'],
    });
    try {
      const context = await browser.newContext({ permissions: ['microphone'] });
      await context.addInitScript(() => window.localStorage.setItem('hasSeenOnboarding', 'true'));
      const page = await context.newPage();
      await page.goto(`${baseUrl}/app`);
      await page.getByRole('button', { name: 'Start a voice call' }).click();
      const marks = () =>
        page.evaluate(() => performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime })));
      const deadline = Date.now() + (browserTurns + 2) * 12_000;
      let pairs: Array<{ fromTurnEnd: number; fromSpeechEnd: number; phases: number[] }> = [];
      while (Date.now() < deadline) {
        await page.waitForTimeout(2000);
        const all = await marks();
        pairs = [];
        for (const [index, mark] of all.entries()) {
          if (mark.name !== 'voice:turn-end') continue;
          const speechEnd = all.slice(0, index).findLast((m) => m.name === 'voice:user-speech-end');
          const next = all.slice(index + 1);
          const audio = next.find((m) => m.name === 'voice:first-audio');
          const nextTurn = next.find((m) => m.name === 'voice:turn-end');
          if (!audio || !speechEnd || (nextTurn && nextTurn.at < audio.at)) continue;
          // Where the time goes, from the real end of the speech: the reply's start (the speculative
          // one at the pause, or the end of the turn), the transcript, the first token, the first audio.
          const between = (name: string, from: number, to: number) => all.find((m) => m.name === name && m.at >= from && m.at <= to)?.at;
          const started = all.slice(0, index).findLast((m) => m.name === 'voice:speculation' && m.at >= speechEnd.at)?.at ?? mark.at;
          const transcribed = between('voice:transcribed', started, audio.at) ?? Number.NaN;
          const firstToken = between('voice:first-token', transcribed, audio.at) ?? Number.NaN;
          pairs.push({ fromTurnEnd: audio.at - mark.at, fromSpeechEnd: audio.at - speechEnd.at, phases: [started, transcribed, firstToken, audio.at].map((t) => t - speechEnd.at) });
        }
        if (pairs.length >= browserTurns + 1) break;
      }
      // The first turn warms up the page, the server and the connections.
      const measured = pairs.slice(1, browserTurns + 1);
      if (measured.length < 3) throw new Error(`only ${measured.length} browser turns were measured: ${JSON.stringify((await marks()).map((m) => `${m.name}@${m.at.toFixed(0)}`))}`);
      const fromTurnEnd = measured.map((p) => p.fromTurnEnd);
      const fromSpeechEnd = measured.map((p) => p.fromSpeechEnd);
      const p50 = quantile(fromTurnEnd, 0.5);
      const p95 = quantile(fromTurnEnd, 0.95);
      console.log(`browser path (Chromium, fake microphone, ${measured.length} turns): end of the turn to the first reply audio p50 ${ms(p50)}, p95 ${ms(p95)} (budget p50 1200 ms, p95 1600 ms)`);
      console.log(`  from the real end of the speech (the turn's 700 ms of silence included): p50 ${ms(quantile(fromSpeechEnd, 0.5))}, p95 ${ms(quantile(fromSpeechEnd, 0.95))}`);
      const phase = (i: number) => ms(quantile(measured.map((p) => p.phases[i]!), 0.5));
      console.log(`  medians after the real end of the speech: reply started (pause seen) ${phase(0)}, transcript ${phase(1)}, first token ${phase(2)}, first audio ${phase(3)}; the turn ends at ${ms(quantile(measured.map((p) => p.fromSpeechEnd - p.fromTurnEnd), 0.5))}`);
      // What the speculation costs: replies started at a pause, and those given up (each one a
      // transcription, and a model request when the transcript came back before the voice did).
      const all = await marks();
      const turns = all.filter((m) => m.name === 'voice:turn-end').length;
      const count = (name: string) => all.filter((m) => m.name === name).length;
      console.log(`  speculation: ${count('voice:speculation')} replies started at a pause over ${turns} turns, ${count('voice:speculation-discarded')} given up`);
      const realP50 = quantile(fromSpeechEnd, 0.5);
      const realP95 = quantile(fromSpeechEnd, 0.95);
      console.log(`  from the real end of the speech against the same budget (p50 1200 ms, p95 1600 ms): ${realP50 <= 1200 && realP95 <= 1600 ? 'within' : 'OVER'}`);
      if (p50 > 1200 || p95 > 1600) failed = true;
    } finally {
      await browser.close();
    }
  } finally {
    // (An app that already exited, e.g. one that failed to start, would never emit 'exit' again.)
    if (app.exitCode === null && app.signalCode === null) {
      const exited = new Promise((resolve) => app.once('exit', resolve));
      app.kill('SIGTERM');
      await exited;
    }
    await fake.close();
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);

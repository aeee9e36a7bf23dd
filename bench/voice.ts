// Voice benchmark (bench/README.md, "Voice"):
//  1. the server's time per browser voice turn beyond the provider: transcribe, the coach's turn
//     (saved in the chat) and the streamed speech, against fake providers that answer at once, so
//     the whole turn is an upper bound of what the server adds (budget: 50 ms at the median);
//  2. the time to the first audio byte with a slow synthesiser: it must arrive well before the
//     synthesis ends.
import { startFakeOpenAI, silentWav } from '../test/fakes/openai.js';
import { signUp } from '../test/helpers/clients.js';
import { startTestServer } from '../test/helpers/server.js';

const turns = Number(process.env.BENCH_VOICE_TURNS ?? 20);
// At most 25 in all: the coach's per-user budget is 30 requests a minute (aiRateLimit.ts).
const budgetMs = 50;

const fake = await startFakeOpenAI();
const server = await startTestServer({ DEMO_MODE: 'false', OPENAI_API_KEY: 'sk-bench-key-123456', OPENAI_BASE_URL: fake.url, LOG_LEVEL: 'silent' });
let failed = false;
try {
  const { http } = await signUp(server.url, 'bench-voice');
  const headers = { 'content-type': 'application/json', cookie: http.cookieHeader, origin: server.url };
  const post = (path: string, body: unknown) => fetch(server.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
  // A 3-second recording's worth of bytes (webm at ~32 kbit/s is about 12 KB).
  const audioBlob = silentWav(750).toString('base64');
  fake.behave({ speechChunks: 4, speechDurationMs: 400 });

  const times: number[] = [];
  let chatId: number | null = null;
  for (let i = 0; i < turns + 5; i++) {
    const started = performance.now();
    const heard = (await (await post('/api/voice/transcribe', { audioBlob })).json()) as { transcription: string };
    const turn = (await (await post('/trpc/voice.turn', { chatId, text: heard.transcription })).json()) as { result: { data: { chatId: number; reply: string } } };
    chatId = turn.result.data.chatId;
    const speech = await post('/api/voice/synthesize', { text: turn.result.data.reply, voice: 'alloy' });
    await speech.arrayBuffer();
    // The first five warm up the JIT, the SDK's connections and the database.
    if (i >= 5) times.push(performance.now() - started);
    // A fresh chat every 10 turns, like separate calls.
    if (i % 10 === 9) chatId = null;
  }
  times.sort((a, b) => a - b);
  const pick = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  console.log(`voice turn (transcribe + coach turn + streamed speech), ${times.length} turns with instant fake providers:`);
  console.log(`  median ${pick(0.5).toFixed(1)} ms, p95 ${pick(0.95).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms (budget ${budgetMs} ms at the median)`);
  if (pick(0.5) > budgetMs) failed = true;

  // Slow synthesis: 10 chunks 200 ms apart, so the provider needs about 1.8 s in all.
  fake.behave({ speechChunks: 10, speechChunkDelayMs: 200, speechDurationMs: 2000 });
  const results: Array<{ first: number; last: number }> = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const res = await post('/api/voice/synthesize', { text: 'A slow reply to speak.', voice: 'alloy' });
    const reader = res.body!.getReader();
    await reader.read();
    const first = performance.now() - started;
    while (!(await reader.read()).done);
    results.push({ first, last: performance.now() - started });
  }
  console.log('time to the first audio byte with a slow synthesiser (10 chunks, 200 ms apart):');
  for (const { first, last } of results) console.log(`  first byte ${first.toFixed(1)} ms, last byte ${last.toFixed(1)} ms`);
  if (results.some(({ first, last }) => first > last / 4)) failed = true;
} finally {
  await server.stop();
  await fake.close();
}
process.exit(failed ? 1 : 0);

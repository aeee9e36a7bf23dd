import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceTexts } from '../../src/shared/texts/index.js';
import { eventually, signUp } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';

// A recording's budget is taken before its body is read, and the body goes to the provider as it
// arrives: POST /api/voice/transcribe and POST /api/voice/turn with audio/*. A caller
// whose voice budget is spent gets its 429 while it is still sending; an accepted upload reaches
// the provider before the client has finished sending it (it is not held whole first).

type Answer = { status: number; body: string; headers: Record<string, string | string[] | undefined> };

/** Starts an upload declaring `declared` bytes, sends `first` of them, and resolves with the answer (the rest is sent by `rest`). */
function startUpload(url: string, headers: Record<string, string>, declared: number, first: number) {
  let answered = false;
  let sent = first;
  let req!: ReturnType<typeof request>;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = request(url, { method: 'POST', headers: { 'content-type': 'audio/webm', 'content-length': String(declared), ...headers } }, (res) => {
      answered = true;
      let body = '';
      res.on('data', (part) => (body += part));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    // The server may close the connection on a body it will not read.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    req.write(Buffer.alloc(first, 7));
  });
  return {
    answer,
    answeredYet: () => answered,
    /** Sends the rest of the declared body. */
    rest: () => {
      req.end(Buffer.alloc(declared - sent, 7));
      sent = declared;
    },
  };
}

describe('voice uploads: budget first, streamed to the provider', { timeout: 120_000 }, () => {
  let model: FakeOpenAI;
  let server: TestServer;

  beforeAll(async () => {
    model = await startFakeOpenAI();
    server = await startTestServer({
      DEMO_MODE: 'false',
      OPENAI_API_KEY: 'sk-test-key-123456',
      OPENAI_BASE_URL: model.url,
      RATE_LIMIT_VOICE_PER_MINUTE: '1',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await model?.close();
  });

  it('answers 429 to a large upload while it is still being sent, once the voice budget is spent, for a transcription and for a recorded turn', async () => {
    const { http } = await signUp(server.url, 'upload-budget');
    const auth = { cookie: http.cookieHeader, origin: server.url };
    // The minute's one voice request.
    const small = await fetch(`${server.url}/api/voice/transcribe`, { method: 'POST', headers: { 'content-type': 'audio/webm', ...auth }, body: Buffer.from('1a45dfa3a342868101', 'hex') });
    expect(small.status).toBe(200);
    const asked = model.transcriptionsStarted;

    for (const path of ['/api/voice/transcribe', '/api/voice/turn']) {
      // 20 MB declared, 64 KB sent: the answer comes without the rest (which is never sent).
      const upload = startUpload(`${server.url}${path}`, auth, 20 * 1024 * 1024, 64 * 1024);
      const refused = await Promise.race([
        upload.answer,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)),
      ]);
      expect(refused, `${path} waited for the body before refusing it`).not.toBeNull();
      expect(refused!.status).toBe(429);
      expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
      expect(JSON.parse(refused!.body).message).toBe(voiceTexts.rateLimited(Number(refused!.headers['retry-after'])));
      expect(refused!.headers.connection).toBe('close');
    }
    // Nothing of them reached the provider.
    expect(model.transcriptionsStarted).toBe(asked);
  });

  it('sends an accepted upload on to the provider as it arrives, not once it is whole', async () => {
    const { http } = await signUp(server.url, 'upload-stream');
    const before = model.transcriptionsStarted;
    const total = 4 * 1024 * 1024;
    const upload = startUpload(`${server.url}/api/voice/transcribe`, { cookie: http.cookieHeader, origin: server.url }, total, 1024 * 1024);
    // The provider's request has begun while three quarters of the recording are still to come.
    await eventually(() => model.transcriptionsStarted > before, 20_000);
    expect(upload.answeredYet()).toBe(false);
    upload.rest();
    const answer = await upload.answer;
    expect(answer.status).toBe(200);
    expect(model.audioRequests.at(-1)).toMatchObject({ fileName: 'speech.webm', fileType: 'audio/webm', fileBytes: total, model: 'whisper-1' });
  });
});

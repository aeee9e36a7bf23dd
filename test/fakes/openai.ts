import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A local server speaking OpenAI's Chat Completions API (POST /v1/chat/completions), plain and
// streamed as server-sent events, so tests exercise the real openai SDK end to end. Switches make
// it slow, fail mid-stream, or answer 429/500/401 in OpenAI's error format.

export type FakeChatRequest = {
  model?: string;
  messages?: Array<{ role: string; content: unknown }>;
  stream?: boolean;
  [key: string]: unknown;
};

/** The prompt size the fake reports in its usage (a number a tokenizer would not give). */
export const fakePromptTokens = 4242;

export type FakeBehaviour = {
  /** false: never report token usage, as some OpenAI-compatible servers do not. */
  reportUsage?: boolean;
  /** The reply text (or a function of the request); split into word tokens when streamed. */
  reply?: string | ((request: FakeChatRequest) => string);
  /** Exact tokens to send; wins over `reply`. */
  tokens?: string[];
  /** Pause before each streamed token. */
  tokenDelayMs?: number;
  /** Streamed: after this many tokens send nothing more, keeping the connection open (a stalled provider). */
  stallAfterTokens?: number;
  /** Streamed: destroy the socket after this many tokens. */
  failAfterTokens?: number;
  /** Answer with this error status instead of a completion. */
  status?: 429 | 500 | 401;
  /** Retry-After header sent with 429 (default 0, so that the SDK's retry is immediate). */
  retryAfterSeconds?: number;
  /**
   * Streamed: hold every reply until this many streamed requests have arrived, then start them
   * with their phases spread evenly over one token interval (benchmarks of concurrent streams).
   */
  startTogether?: number;
  /** With startTogether: a pause after the last request arrived, before the first token. */
  startTogetherDelayMs?: number;
  /** /v1/audio/transcriptions: the text heard in any recording. */
  transcription?: string;
  /** /v1/audio/speech: how many chunks the audio is sent in, and the pause before each. */
  speechChunks?: number;
  speechChunkDelayMs?: number;
  /** /v1/audio/speech: the length of the audio (a quiet tone: silent WAV, or raw PCM for response_format pcm). */
  speechDurationMs?: number;
  /** Realistic provider delays (bench:voice): before the transcription answers, before the first streamed token, before the first speech byte. */
  transcriptionDelayMs?: number;
  firstTokenDelayMs?: number;
  speechFirstByteDelayMs?: number;
};

/** A transcription or speech request as the fake received it. */
export type ReceivedAudioRequest = {
  path: string;
  /** Transcriptions: the uploaded file's name, type and size, and the form's model. */
  fileName?: string;
  fileType?: string;
  fileBytes?: number;
  model?: string;
  /** Speech: the JSON body. */
  body?: Record<string, unknown>;
};

export const defaultFakeTranscription = 'I want to prepare for a difficult conversation with my manager.';

export type ReceivedRequest = {
  body: FakeChatRequest;
  /** Whether an Authorization header came with it (its value is never kept). */
  authorization: boolean;
  path: string;
  /** Set when the client went away before the response finished. */
  disconnected: boolean;
};

export type TokenWrite = { requestIndex: number; index: number; text: string; writtenAtNs: bigint };

export type FakeOpenAI = {
  /** Base URL for the SDK, ending in /v1. */
  url: string;
  requests: ReceivedRequest[];
  /**
   * The coach's streamed replies only, in order: `requests` without the memory extraction that
   * follows each completed reply in the background (not streamed, with a JSON schema), which may
   * arrive before a test looks at the reply's own request.
   */
  replyRequests(): ReceivedRequest[];
  audioRequests: ReceivedAudioRequest[];
  /** Transcription requests whose headers have arrived (counted before their body is read). */
  transcriptionsStarted: number;
  /** Speech: when each chunk was written (process.hrtime.bigint()) and when the last was. */
  speechWrites: bigint[];
  /** Every streamed token with the time it was written (process.hrtime.bigint()). */
  tokenWrites: TokenWrite[];
  /** Called as each streamed token is written. */
  onToken?: (index: number, text: string, writtenAtNs: bigint) => void;
  behave(behaviour: FakeBehaviour): void;
  reset(): void;
  close(): Promise<void>;
};

export const defaultFakeReply = 'Hello from the fake model.';

/** `port`: a fixed port (the e2e fakes started by test/fakes/openai-cli.ts); ephemeral by default. */
export async function startFakeOpenAI(options: { port?: number } = {}): Promise<FakeOpenAI> {
  let behaviour: FakeBehaviour = {};
  let counter = 0;
  // The startTogether barrier: streamed requests arrived so far, and the release of all of them.
  let waiting = 0;
  let releaseAll: () => void = () => {};
  let released = new Promise<void>((resolve) => (releaseAll = resolve));
  const resetBarrier = () => {
    waiting = 0;
    released = new Promise<void>((resolve) => (releaseAll = resolve));
  };
  const sockets = new Set<Socket>();

  const fake: FakeOpenAI = {
    url: '',
    requests: [],
    replyRequests: () => fake.requests.filter((r) => r.body.stream === true),
    audioRequests: [],
    transcriptionsStarted: 0,
    speechWrites: [],
    tokenWrites: [],
    behave(next) {
      behaviour = { ...next };
      resetBarrier();
    },
    reset() {
      behaviour = {};
      resetBarrier();
      fake.requests.length = 0;
      fake.audioRequests.length = 0;
      fake.speechWrites.length = 0;
      fake.tokenWrites.length = 0;
      fake.onToken = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (req.method === 'GET' && path === '/v1/models') {
      return json(res, 200, { object: 'list', data: [{ id: 'gpt-4o', object: 'model', created: 0, owned_by: 'fake' }] });
    }
    // An upload streamed to it may be cut off by its sender (past the cap): the request is simply gone.
    if (req.method === 'POST' && path === '/v1/audio/transcriptions') return transcriptions(req, res).catch(() => res.destroy());
    if (req.method === 'POST' && path === '/v1/audio/speech') return speech(req, res);
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return error(res, 404, 'Unknown request path', 'invalid_request_error', 'unknown_url');
    }

    let body: FakeChatRequest;
    try {
      body = JSON.parse(await readBody(req)) as FakeChatRequest;
    } catch {
      return error(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null);
    }
    const received: ReceivedRequest = { body, authorization: Boolean(req.headers.authorization), path, disconnected: false };
    const requestIndex = fake.requests.push(received) - 1;
    res.on('close', () => {
      if (!res.writableFinished) received.disconnected = true;
    });

    const b = behaviour;
    if (b.status === 429) {
      res.setHeader('Retry-After', String(b.retryAfterSeconds ?? 0));
      return error(res, 429, 'Rate limit reached for requests', 'requests', 'rate_limit_exceeded');
    }
    if (b.status === 500) return error(res, 500, 'The server had an error while processing your request.', 'server_error', null);
    if (b.status === 401) return error(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');

    const text = typeof b.reply === 'function' ? b.reply(body) : (b.reply ?? defaultFakeReply);
    const tokens = b.tokens ?? text.split(/(?<=\s)(?=\S)/);
    const id = `chatcmpl-fake${++counter}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? 'gpt-4o';

    if (!body.stream) {
      return json(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: tokens.join(''), refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: fakePromptTokens, completion_tokens: tokens.length, total_tokens: fakePromptTokens + tokens.length },
      });
    }

    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '', refusal: null }, null));
    if (b.startTogether) {
      const order = waiting++;
      if (waiting >= b.startTogether) releaseAll();
      await released;
      await sleep((b.startTogetherDelayMs ?? 0) + ((order % b.startTogether) * (b.tokenDelayMs ?? 0)) / b.startTogether);
    }
    if (b.firstTokenDelayMs) await sleep(b.firstTokenDelayMs);
    for (const [index, token] of tokens.entries()) {
      if (b.failAfterTokens !== undefined && index >= b.failAfterTokens) {
        res.socket?.destroy();
        return;
      }
      if (b.stallAfterTokens !== undefined && index >= b.stallAfterTokens) {
        await new Promise<void>((resolve) => res.once('close', () => resolve()));
        return;
      }
      if (b.tokenDelayMs && !(index === 0 && b.firstTokenDelayMs)) await sleep(b.tokenDelayMs);
      if (res.destroyed || received.disconnected) return;
      // Wait until the token has left for the client, so that its time is real and a failure
      // after it cannot swallow it.
      await new Promise<void>((resolve) => res.write(chunk({ content: token }, null), () => resolve()));
      const writtenAtNs = process.hrtime.bigint();
      fake.tokenWrites.push({ requestIndex, index, text: token, writtenAtNs });
      fake.onToken?.(index, token, writtenAtNs);
    }
    if (b.failAfterTokens !== undefined) {
      // Fewer tokens than the failure point: the stream still breaks off before it finishes.
      res.socket?.destroy();
      return;
    }
    res.write(chunk({}, 'stop'));
    // As OpenAI: with stream_options.include_usage, a last chunk with the usage and no choices.
    const options = body.stream_options as { include_usage?: boolean } | undefined;
    if (options?.include_usage && b.reportUsage !== false) {
      const usage = { prompt_tokens: fakePromptTokens, completion_tokens: tokens.length, total_tokens: fakePromptTokens + tokens.length };
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  });
  // Multipart like OpenAI's: a `file` part with a name whose extension says the format, and `model`.
  async function transcriptions(req: http.IncomingMessage, res: http.ServerResponse) {
    fake.transcriptionsStarted += 1;
    if (behaviour.status) return error(res, behaviour.status, 'The server had an error while processing your request.', 'server_error', null);
    const raw = await readRawBody(req);
    let form: FormData;
    try {
      form = await new Request('http://fake/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: new Uint8Array(raw) }).formData();
    } catch {
      return error(res, 400, 'Could not parse multipart form', 'invalid_request_error', null);
    }
    const file = form.get('file');
    const model = form.get('model');
    if (!(file instanceof File)) return error(res, 400, "Missing required parameter: 'file'.", 'invalid_request_error', null);
    fake.audioRequests.push({ path: '/v1/audio/transcriptions', fileName: file.name, fileType: file.type, fileBytes: file.size, model: typeof model === 'string' ? model : undefined });
    if (!/\.(flac|m4a|mp3|mp4|mpeg|mpga|oga|ogg|wav|webm)$/i.test(file.name)) {
      return error(res, 400, "Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']", 'invalid_request_error', null);
    }
    if (typeof model !== 'string' || !model) return error(res, 400, "Missing required parameter: 'model'.", 'invalid_request_error', null);
    if (behaviour.transcriptionDelayMs) await sleep(behaviour.transcriptionDelayMs);
    json(res, 200, { text: behaviour.transcription ?? defaultFakeTranscription });
  }

  // Audio sent chunked as it is "synthesised"; a slow mode spaces the chunks out.
  async function speech(req: http.IncomingMessage, res: http.ServerResponse) {
    if (behaviour.status) return error(res, behaviour.status, 'The server had an error while processing your request.', 'server_error', null);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return error(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null);
    }
    fake.audioRequests.push({ path: '/v1/audio/speech', body });
    if (typeof body.input !== 'string' || !body.input) return error(res, 400, "Missing required parameter: 'input'.", 'invalid_request_error', null);
    if (typeof body.voice !== 'string' || typeof body.model !== 'string') return error(res, 400, "Missing required parameter: 'voice'.", 'invalid_request_error', null);
    const pcm = body.response_format === 'pcm';
    // OpenAI's pcm: raw 24 kHz 16-bit mono little-endian samples, no header.
    const audio = pcm ? quietPcm(behaviour.speechDurationMs ?? 400) : silentWav(behaviour.speechDurationMs ?? 400);
    const count = Math.max(1, behaviour.speechChunks ?? 4);
    const size = Math.ceil(audio.byteLength / count);
    if (behaviour.speechFirstByteDelayMs) await sleep(behaviour.speechFirstByteDelayMs);
    res.writeHead(200, { 'Content-Type': pcm ? 'audio/pcm' : 'audio/wav', 'Transfer-Encoding': 'chunked' });
    for (let offset = 0; offset < audio.byteLength; offset += size) {
      if (offset > 0 && behaviour.speechChunkDelayMs) await sleep(behaviour.speechChunkDelayMs);
      if (res.destroyed) return;
      await new Promise<void>((resolve) => res.write(audio.subarray(offset, offset + size), () => resolve()));
      fake.speechWrites.push(process.hrtime.bigint());
    }
    res.end();
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject); // a fixed port already in use fails the start instead of hanging
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function readRawBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

/** Raw 24 kHz 16-bit mono PCM of a quiet 440 Hz tone (audible in a trace, too quiet to be taken for speech). */
export function quietPcm(durationMs: number): Buffer {
  const samples = Math.round((24_000 * durationMs) / 1000);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(200 * Math.sin((2 * Math.PI * 440 * i) / 24_000)), i * 2);
  return pcm;
}

/** A playable mono 16-bit 8 kHz WAV of silence. */
export function silentWav(durationMs: number): Buffer {
  const sampleRate = 8000;
  const samples = Math.round((sampleRate * durationMs) / 1000);
  const data = samples * 2;
  const wav = Buffer.alloc(44 + data);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + data, 4);
  wav.write('WAVE', 8);
  wav.write('fmt ', 12);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(data, 40);
  return wav;
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function error(res: http.ServerResponse, status: number, message: string, type: string, code: string | null) {
  json(res, status, { error: { message, type, param: null, code } });
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The system messages of a chat request, joined: the coach's (or the other person's) context as the model got it. */
export function systemTextOf(request: FakeChatRequest): string {
  return (request.messages ?? [])
    .filter((m) => m.role === 'system')
    .map((m) => String(m.content))
    .join('\n');
}

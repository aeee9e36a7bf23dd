import express, { Router, type Request, type Response } from 'express';
import { TRPCError } from '@trpc/server';
import { uploadAudioTypes, voiceLimits, type StreamedAudio } from '../../../shared/schemas/voice.js';
import { commonTexts, voiceTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import { httpContext } from '../../http/requestContext.js';
import { restRoute } from '../../http/rest.js';
import { createCaller } from '../../trpc/root.js';

// POST /api/voice/transcribe and /api/voice/synthesize (the product spec's REST calls) over the voice router, and
// the browser call's streamed turn (POST /api/voice/turn) and interruption (POST /api/voice/heard).
//
// A recording is read only once its sender is known and its budget taken: the caller is
// authenticated from the headers first, the voice budget is taken (429 before a byte is read), and
// a body is refused before it is read when it says it is too large, and cut off when it grows past
// the cap. It may come as binary audio/* (what the browser call sends: streamed to the provider as
// it arrives, never held whole), as multipart with an audio file, or as the spec's base64 JSON, each
// up to 25 MB of audio.

const jsonBody = express.json({ limit: '100kb' });
// Base64 is 4 characters per 3 bytes, plus the JSON around it.
const maxJsonRecordingBytes = Math.ceil(voiceLimits.maxAudioBytes / 3) * 4 + 4096;
const recordingJson = express.json({ limit: maxJsonRecordingBytes });
// Multipart headers and boundaries around the file.
const multipartOverhead = 64 * 1024;

class TooLarge extends Error {}

export function voiceRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.post('/api/voice/transcribe', restRoute(deps, async (caller, req, res) => {
    try {
      // Who is sending, and the upload's budget, before a byte of the body is read: a refused
      // caller's body (up to 25 MB) is never read.
      await caller.voice.reserveUpload();
    } catch (error) {
      res.setHeader('Connection', 'close');
      throw error;
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    let upload: AudioUpload | undefined;
    try {
      if (type === 'application/json') {
        await parseWith(recordingJson, req, res);
        return await caller.voice.transcribe(req.body ?? {});
      }
      if (type.startsWith('audio/')) {
        upload = streamAudioBody(req, type);
        return await caller.voice.transcribeAudio({ audio: upload.audio, extension: upload.extension });
      }
      if (type === 'multipart/form-data') {
        const raw = await readCapped(req, voiceLimits.maxAudioBytes + multipartOverhead);
        const form = await new Request('http://upload/', { method: 'POST', headers: { 'content-type': req.headers['content-type']! }, body: raw as Uint8Array<ArrayBuffer> }).formData().catch(() => null);
        const file = form ? [...form.values()].find((value): value is File => value instanceof File) : undefined;
        const fileType = (file?.type ?? '').split(';')[0]!.trim().toLowerCase();
        const extension = uploadAudioTypes[fileType] ?? /\.(webm|wav|ogg|mp3|mp4|m4a|flac)$/i.exec(file?.name ?? '')?.[1]?.toLowerCase();
        if (!file || !extension) throw new TRPCError({ code: 'BAD_REQUEST', message: voiceTexts.audioUnsupportedType });
        return await caller.voice.transcribeAudio({ audio: file, extension: extension as 'webm' });
      }
      throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: voiceTexts.audioUnsupportedType });
    } catch (error) {
      // Refused before a procedure took the budget over (415, 413 by its declared length): given back.
      await caller.voice.releaseUpload().catch(() => {});
      throw uploadError(res, error, upload);
    }
  }));

  routes.post('/api/voice/synthesize', jsonOnly(jsonBody), restRoute(deps, async (_caller, req, res) => {
    // The audio goes out as the provider sends it; a client that leaves stops the synthesis.
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const caller = createCaller(await httpContext(deps, req, res), { signal: controller.signal });
    const { contentType, chunks } = await caller.voice.synthesize(req.body ?? {});
    await streamOut(deps, res, contentType, chunks, (chunk) => chunk);
    return undefined;
  }));

  // The browser call's turn: one JSON line per event (application/x-ndjson), the tokens as the model
  // writes them, then `done` with the saved message (or `error`). Leaving stops the model.
  // The turn may also come as the recording itself (audio/*, the chat and `provisional` in the
  // query string): transcribed and answered in one request, the transcript the first event. Its
  // body is read, as a transcription's, only once the caller is known and within the cap.
  routes.post('/api/voice/turn', jsonOnly(jsonBody), restRoute(deps, async (_caller, req, res) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const caller = createCaller(await httpContext(deps, req, res), { signal: controller.signal });
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    let events: AsyncIterable<unknown>;
    if (type.startsWith('audio/')) {
      let upload: AudioUpload | undefined;
      try {
        // The turn's transcription budget before a byte of the recording is read.
        await caller.voice.reserveUpload();
        upload = streamAudioBody(req, type);
        ({ events } = await caller.voice.audioTurn({ ...req.query, audio: upload.audio, extension: upload.extension }));
      } catch (error) {
        await caller.voice.releaseUpload().catch(() => {});
        throw uploadError(res, error, upload);
      }
    } else ({ events } = await caller.voice.turn(req.body ?? {}));
    res.socket?.setNoDelay(true);
    await streamOut(deps, res, 'application/x-ndjson; charset=utf-8', events, (event) => `${JSON.stringify(event)}\n`);
    return undefined;
  }));

  routes.post('/api/voice/heard', jsonOnly(jsonBody), restRoute(deps, (caller, req) => caller.voice.heard(req.body ?? {})));
  routes.post('/api/voice/keep', jsonOnly(jsonBody), restRoute(deps, (caller, req) => caller.voice.keep(req.body ?? {})));
  return routes;
}

async function streamOut<T>(deps: Pick<AppDeps, 'log'>, res: Response, contentType: string, items: AsyncIterable<T>, encode: (item: T) => Uint8Array | string) {
  const iterator = items[Symbol.asyncIterator]();
  try {
    // The first item is awaited before the headers, so a provider failing at once gets a 502.
    let next = await iterator.next();
    res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    res.flushHeaders();
    while (!next.done && !res.destroyed) {
      if (!res.write(encode(next.value))) await new Promise((resolve) => res.once('drain', resolve));
      next = await iterator.next();
    }
    res.end();
  } catch (error) {
    if (!res.headersSent) throw error;
    deps.log.warn({ err: error }, 'voice stream broke off');
    res.destroy();
  } finally {
    await iterator.return?.(undefined);
  }
}

type AudioUpload = { audio: StreamedAudio; extension: 'webm'; tooLarge: boolean; empty: boolean; complete: boolean };

/**
 * A binary recording (audio/* of a type the provider takes), streamed to the provider as it
 * arrives, never held whole: 415 for another type and 413 for a declared length past the cap, both
 * before it is read; cut off (413) when it grows past the cap, 400 when it is empty.
 */
function streamAudioBody(req: Request, type: string): AudioUpload {
  const extension = uploadAudioTypes[type];
  if (!extension) throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: voiceTexts.audioUnsupportedType });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > voiceLimits.maxAudioBytes) throw new TooLarge();
  if (req.headers['content-length'] !== undefined && declared === 0) throw new TRPCError({ code: 'BAD_REQUEST', message: voiceTexts.audioEmpty });
  const upload: AudioUpload = { audio: { type, stream: chunks() }, extension: extension as 'webm', tooLarge: false, empty: false, complete: false };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    let total = 0;
    for await (const part of req as AsyncIterable<Buffer>) {
      total += part.byteLength;
      if (total > voiceLimits.maxAudioBytes) {
        upload.tooLarge = true;
        throw new TooLarge();
      }
      yield part;
    }
    if (total === 0) {
      upload.empty = true;
      throw new Error('empty upload');
    }
    upload.complete = true;
  }
  return upload;
}

/**
 * What a failed upload answers: 413 past the cap, 400 when empty. A body not read to its end
 * (refused first, cut off, or the provider failed while it came) leaves the connection unusable.
 */
function uploadError(res: Response, error: unknown, upload: AudioUpload | undefined): unknown {
  if (!upload?.complete) res.setHeader('Connection', 'close');
  if (upload?.tooLarge || error instanceof TooLarge) return new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: voiceTexts.audioTooLarge });
  if (upload?.empty) return new TRPCError({ code: 'BAD_REQUEST', message: voiceTexts.audioEmpty });
  return error;
}

/** The body, refused unread when its declared length is past `cap`, cut off when it grows past it. */
async function readCapped(req: Request, cap: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) throw new TooLarge();
  const parts: Buffer[] = [];
  let total = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    total += part.byteLength;
    if (total > cap) throw new TooLarge();
    parts.push(part);
  }
  return Buffer.concat(parts);
}

function parseWith(parser: express.RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) =>
    parser(req, res, (error?: unknown) => {
      if (!error) return resolve();
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') return reject(new TooLarge());
      reject(new TRPCError({ code: 'BAD_REQUEST', message: commonTexts.badJson }));
    }),
  );
}

// Parse errors answered in the app's { message } shape.
function jsonOnly(parser: express.RequestHandler) {
  return (req: Request, res: Response, next: (error?: unknown) => void) =>
    parser(req, res, (error?: unknown) => {
      if (!error) return next();
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') return void res.status(413).json({ message: commonTexts.tooLarge });
      return void res.status(400).json({ message: commonTexts.badJson });
    });
}

import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { commonTexts, voiceTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import { httpContext } from '../../http/requestContext.js';
import { restRoute } from '../../http/rest.js';
import { createCaller } from '../../trpc/root.js';

// POST /api/voice/transcribe and /api/voice/synthesize (SPEC section 7) over the voice router.
// Mounted before the app's 100kb JSON parser: a recording may hold 25 MB of audio (as base64).

const recordingBody = express.json({ limit: '36mb' });
const textBody = express.json({ limit: '100kb' });

export function voiceRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.post('/api/voice/transcribe', jsonOnly(recordingBody), restRoute(deps, (caller, req) => caller.voice.transcribe(req.body ?? {})));
  routes.post('/api/voice/synthesize', jsonOnly(textBody), restRoute(deps, async (_caller, req, res) => {
    // The audio goes out as the provider sends it; a client that leaves stops the synthesis.
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const caller = createCaller(await httpContext(deps, req, res), { signal: controller.signal });
    const { contentType, chunks } = await caller.voice.synthesize(req.body ?? {});
    const iterator = chunks[Symbol.asyncIterator]();
    try {
      // The first chunk is awaited before the headers, so a provider failing at once gets a 502.
      let next = await iterator.next();
      res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
      while (!next.done && !res.destroyed) {
        if (!res.write(next.value)) await new Promise((resolve) => res.once('drain', resolve));
        next = await iterator.next();
      }
      res.end();
    } catch (error) {
      if (!res.headersSent) throw error;
      deps.log.warn({ err: error }, 'speech stream broke off');
      res.destroy();
    } finally {
      await iterator.return?.();
    }
    return undefined;
  }));
  return routes;
}

// Parse errors answered in the app's { message } shape, including a recording over the limit.
function jsonOnly(parser: express.RequestHandler) {
  return (req: Request, res: Response, next: NextFunction) =>
    parser(req, res, (error?: unknown) => {
      if (!error) return next();
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') return void res.status(413).json({ message: req.path.endsWith('transcribe') ? voiceTexts.audioTooLarge : commonTexts.tooLarge });
      return void res.status(400).json({ message: commonTexts.badJson });
    });
}

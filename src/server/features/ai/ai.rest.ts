import crypto from 'node:crypto';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { AiCompletionInput } from '../../../shared/schemas/ai.js';
import { commonTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import { httpContext } from '../../http/requestContext.js';
import { publicMessage } from '../../trpc/init.js';
import { createCaller } from '../../trpc/root.js';
import { RateLimitError } from '../limits/rateLimits.js';

// POST /api/openai/chat/completions (SPEC section 7): OpenAI's Chat Completions wire format over
// the ai router's procedures, so that the official openai SDK (baseURL .../api/openai) works as a
// client. The session cookie signs the user in; an Authorization header is ignored.

export const aiCompletionsPath = '/api/openai/chat/completions';

// 100,000 characters of conversation may be up to four bytes each in UTF-8, plus JSON overhead.
const jsonBody = express.json({ limit: '1mb' });

export function aiRestRoutes(deps: AppDeps): Router {
  const routes = Router();
  routes.post(aiCompletionsPath, parseJsonBody, async (req: Request, res: Response) => {
    // The model call stops when the client goes away, streamed or not.
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    try {
      const caller = createCaller(await httpContext(deps, req, res), { signal: controller.signal });
      // Validated by the procedures' schema; `stream` only picks the response format.
      const body = (req.body ?? {}) as AiCompletionInput & { stream?: unknown };
      if (body.stream === true) {
        const { model, deltas } = await caller.ai.stream(body);
        await writeEventStream(res, model, deltas, deps);
      } else {
        const { model, content } = await caller.ai.complete(body);
        res.json(completion(model, content));
      }
    } catch (error) {
      sendError(res, error, deps, req.path);
    }
  });
  return routes;
}

// JSON errors in OpenAI's error shape too (the app's own parser would answer { message }).
function parseJsonBody(req: Request, res: Response, next: NextFunction) {
  jsonBody(req, res, (error?: unknown) => {
    if (!error) return next();
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') return sendOpenAiError(res, 413, commonTexts.tooLarge);
    return sendOpenAiError(res, 400, commonTexts.badJson);
  });
}

const newId = () => `chatcmpl-${crypto.randomUUID().replace(/-/g, '')}`;
const now = () => Math.floor(Date.now() / 1000);

function completion(model: string, content: string) {
  return {
    id: newId(),
    object: 'chat.completion',
    created: now(),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
  };
}

/**
 * Server-sent events as OpenAI sends them: a first chunk with the role, one chunk per delta, a
 * final chunk with finish_reason 'stop', then [DONE]. The first delta is awaited before the
 * headers go out, so that a provider that fails at once still gets a proper 502 response.
 */
async function writeEventStream(res: Response, model: string, deltas: AsyncIterable<string>, deps: AppDeps) {
  const iterator = deltas[Symbol.asyncIterator]();
  const id = newId();
  const created = now();
  const chunk = (delta: Record<string, unknown>, finishReason: 'stop' | null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;

  try {
    let next = await iterator.next();
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // Proxies such as nginx would otherwise hold the tokens back.
      'X-Accel-Buffering': 'no',
    });
    res.write(chunk({ role: 'assistant', content: '' }, null));
    while (!next.done) {
      if (res.destroyed) return;
      res.write(chunk({ content: next.value }, null));
      next = await iterator.next();
    }
    if (res.destroyed) return;
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  } catch (error) {
    if (!res.headersSent) throw error;
    // Once streaming, the status is sent: OpenAI reports a failure as an error event.
    logFailure(error, deps, aiCompletionsPath);
    if (!res.destroyed) {
      const { status, message } = describe(error);
      res.end(`data: ${JSON.stringify({ error: { message, type: errorType(status), param: null, code: errorCode(status) } })}\n\n`);
    }
  } finally {
    await iterator.return?.();
  }
}

function describe(error: unknown): { status: number; message: string } {
  if (error instanceof TRPCError) return { status: getHTTPStatusCodeFromError(error), message: publicMessage(error) };
  return { status: 500, message: commonTexts.genericError };
}

function sendError(res: Response, error: unknown, deps: AppDeps, path: string) {
  if (res.headersSent) {
    res.end();
    return;
  }
  logFailure(error, deps, path);
  const { status, message } = describe(error);
  if (error instanceof RateLimitError) {
    res.setHeader('Retry-After', String(error.retryAfterSeconds));
  }
  sendOpenAiError(res, status, message);
}

function logFailure(error: unknown, deps: AppDeps, path: string) {
  const status = describe(error).status;
  if (status === 502) deps.log.warn({ err: (error as TRPCError).cause ?? error, path }, 'model provider failed');
  else if (status >= 500) deps.log.error({ err: error instanceof TRPCError ? (error.cause ?? error) : error, path }, 'request failed');
}

function sendOpenAiError(res: Response, status: number, message: string) {
  res.status(status).json({ error: { message, type: errorType(status), param: null, code: errorCode(status) } });
}

function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 502) return 'api_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function errorCode(status: number): string {
  if (status === 401) return 'not_authenticated';
  if (status === 403) return 'forbidden';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_exceeded';
  if (status === 502) return 'provider_error';
  if (status >= 500) return 'internal_error';
  return 'invalid_request';
}

import crypto from 'node:crypto';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError } from 'zod';
import type { AiCompletionInput } from '../../../shared/schemas/ai.js';
import { commonTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import { httpContext } from '../../http/requestContext.js';
import { publicMessage } from '../../trpc/init.js';
import { createCaller } from '../../trpc/root.js';
import type { TokenUsage } from '../../providers/ai/contract.js';
import { RateLimitError } from '../limits/index.js';

// The OpenAI-compatible surface (the product spec's REST calls) over the ai router's procedures, so that
// the official openai SDKs (baseURL .../api/openai) and the chat clients built on them work:
// POST chat/completions (streamed or not, with usage), GET models and models/{id}, and every error
// under /api/openai in OpenAI's shape. A personal API key (Authorization: Bearer) or the session
// cookie signs the user in.

export const aiCompletionsPath = '/api/openai/chat/completions';
export const openAiBasePath = '/api/openai';

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
      const body = (req.body ?? {}) as AiCompletionInput;
      if (body.stream === true) {
        const stream = await caller.ai.stream(body);
        await writeEventStream(res, stream, { includeUsage: body.stream_options?.include_usage === true }, deps);
      } else {
        const { model, content, usage } = await caller.ai.complete(body);
        res.json(completion(model, content, usage));
      }
    } catch (error) {
      sendError(res, error, deps, req.path);
    }
  });
  routes.get(`${openAiBasePath}/models`, async (req, res) => {
    try {
      const caller = createCaller(await httpContext(deps, req, res));
      res.json(await caller.ai.models());
    } catch (error) {
      sendError(res, error, deps, req.path);
    }
  });
  routes.get(`${openAiBasePath}/models/:id`, async (req, res) => {
    try {
      const caller = createCaller(await httpContext(deps, req, res));
      res.json(await caller.ai.model({ id: String(req.params.id) }));
    } catch (error) {
      sendError(res, error, deps, req.path);
    }
  });
  // Anything else under /api/openai answers as OpenAI would, not with the app's { message }.
  routes.all(`${openAiBasePath}/{*rest}`, (req, res) => {
    sendOpenAiError(res, 404, `Unknown request URL: ${req.method} ${req.path}. This server answers POST /api/openai/chat/completions and GET /api/openai/models.`, null, 'unknown_url');
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

function usageOf(usage: TokenUsage) {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens };
}

function completion(model: string, content: string, usage: TokenUsage) {
  return {
    id: newId(),
    object: 'chat.completion',
    created: now(),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: usageOf(usage),
  };
}

/**
 * Server-sent events as OpenAI sends them: a first chunk with the role, one chunk per delta, a
 * final chunk with finish_reason 'stop', with include_usage a chunk with the usage and no
 * choices, then [DONE]. The first delta is awaited before the headers go out, so that a provider
 * that fails at once still gets a proper 502 response.
 */
async function writeEventStream(
  res: Response,
  { model, deltas, usage }: { model: string; deltas: AsyncIterable<string>; usage(): TokenUsage },
  options: { includeUsage: boolean },
  deps: Pick<AppDeps, 'log'>,
) {
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
    if (options.includeUsage) {
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageOf(usage()) })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  } catch (error) {
    if (!res.headersSent) throw error;
    // Once streaming, the status is sent: OpenAI reports a failure as an error event.
    logFailure(error, deps, aiCompletionsPath);
    if (!res.destroyed) {
      const { status, message, param } = describe(error);
      res.end(`data: ${JSON.stringify({ error: { message, type: errorType(status), param, code: errorCode(status) } })}\n\n`);
    }
  } finally {
    await iterator.return?.();
  }
}

/** The status, a message a person can read, and which request field was wrong (OpenAI's param). */
function describe(error: unknown): { status: number; message: string; param: string | null } {
  if (error instanceof TRPCError) {
    const path = error.cause instanceof ZodError ? error.cause.issues[0]?.path : undefined;
    return { status: getHTTPStatusCodeFromError(error), message: publicMessage(error), param: path?.length ? path.join('.') : null };
  }
  return { status: 500, message: commonTexts.genericError, param: null };
}

function sendError(res: Response, error: unknown, deps: Pick<AppDeps, 'log'>, path: string) {
  if (res.headersSent) {
    res.end();
    return;
  }
  logFailure(error, deps, path);
  const { status, message, param } = describe(error);
  if (error instanceof RateLimitError) {
    res.setHeader('Retry-After', String(error.retryAfterSeconds));
  }
  sendOpenAiError(res, status, message, param, status === 404 && req404IsModel(path) ? 'model_not_found' : undefined);
}

function req404IsModel(path: string): boolean {
  return path.startsWith(`${openAiBasePath}/models/`);
}

function logFailure(error: unknown, deps: Pick<AppDeps, 'log'>, path: string) {
  const status = describe(error).status;
  if (status === 502) deps.log.warn({ err: (error as TRPCError).cause ?? error, path }, 'model provider failed');
  else if (status >= 500) deps.log.error({ err: error instanceof TRPCError ? (error.cause ?? error) : error, path }, 'request failed');
}

function sendOpenAiError(res: Response, status: number, message: string, param: string | null = null, code = errorCode(status)) {
  res.status(status).json({ error: { message, type: errorType(status), param, code } });
}

function errorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 502) return 'api_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function errorCode(status: number): string {
  if (status === 401) return 'invalid_api_key';
  if (status === 404) return 'not_found';
  if (status === 403) return 'forbidden';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_exceeded';
  if (status === 502) return 'provider_error';
  if (status >= 500) return 'internal_error';
  return 'invalid_request';
}

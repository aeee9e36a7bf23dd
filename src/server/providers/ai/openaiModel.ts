import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { renderCoachContext, withSafetyInstruction } from './renderContext.js';
import { ProviderError, type CoachModel, type CoachRequest } from './contract.js';
import { perRegion } from './regions.js';

export type OpenAiModelOptions = {
  apiKey: string;
  /** Any OpenAI-compatible server (Ollama, vLLM, LM Studio, a test fake); OpenAI when unset. */
  baseUrl?: string;
  model: string;
  /** Per attempt; the SDK's default of ten minutes is far too long for a person waiting. */
  timeoutMs?: number;
  /** The same model at other base URLs, by region name (OPENAI_REGIONS): a request naming a region goes there. */
  regions?: Array<{ name: string; baseUrl: string }>;
};

// The coach backed by the official openai SDK and the Chat Completions API (streamed).
export function createOpenAiModel(options: OpenAiModelOptions): CoachModel {
  // One client per region (OPENAI_REGIONS), made when first asked for; none: OPENAI_BASE_URL.
  const clientFor = perRegion(options, (baseURL) =>
    new OpenAI({
      apiKey: options.apiKey,
      baseURL,
      // One quick retry covers a dropped connection or a short 429; more would keep a person
      // waiting for a reply that is better reported as failed.
      maxRetries: 1,
      timeout: options.timeoutMs ?? 60_000,
    }),
  );
  const redact = secretRedactor(options.apiKey);

  return {
    kind: 'openai',
    model: options.model,
    async *stream(request: CoachRequest) {
      const { signal } = request;
      if (signal?.aborted) return;
      try {
        const chunks = await clientFor(request.region).chat.completions.create(
          {
            model: options.model,
            // The coach's typed context becomes prompt text here, at the edge, before the conversation.
            messages: [...(request.context ? renderCoachContext(request.context) : []), ...withSafetyInstruction(request.messages, request.safety)].map(({ role, content }) => ({ role, content })),
            stream: true,
            // max_tokens rather than max_completion_tokens: every OpenAI-compatible server knows it.
            ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            // The last chunk then carries the token counts (OpenAI, vLLM, Ollama and LM Studio send it).
            ...(request.onUsage ? { stream_options: { include_usage: true } } : {}),
          },
          { signal },
        );
        for await (const chunk of chunks) {
          const delta = chunk.choices[0]?.delta?.content;
          if (delta) yield delta;
          if (chunk.usage) request.onUsage?.({ promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens });
          // The reply's text is complete. What follows is the SDK closing the stream (the [DONE]
          // event, cancelling the body, releasing its reader: AbortError and TypeError objects
          // with their stack traces) and the caller storing the reply: work that can wait for the
          // next turn of the event loop. Replies of one model often end together, and their
          // closing work would otherwise run before the other replies' last tokens already on the
          // sockets are read (bench/results/chat-stream.md: the last token was the
          // slowest by far).
          if (chunk.choices[0]?.finish_reason) await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (error) {
        // A stop asked by the caller is not a failure: the stream just ends.
        if (signal?.aborted || error instanceof APIUserAbortError) return;
        throw toProviderError(error, redact);
      }
    },
  };
}

function toProviderError(error: unknown, redact: (text: string) => string): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError('The model server did not answer in time', { retryable: true });
  }
  if (error instanceof APIConnectionError) {
    return new ProviderError('Could not reach the model server', { retryable: true });
  }
  if (error instanceof APIError) {
    const status = error.status;
    // The provider's own words help whoever reads the log; keys are scrubbed from them anyway.
    const detail = redact(String(error.message ?? '')).slice(0, 300);
    if (status === 429) return new ProviderError(`The model server is rate limiting requests (429): ${detail}`, { status, retryable: true });
    if (status === 401 || status === 403) {
      return new ProviderError(`The model server refused the API key (${status})`, { status, retryable: false });
    }
    if (status !== undefined && status >= 500) {
      return new ProviderError(`The model server failed (${status}): ${detail}`, { status, retryable: true });
    }
    if (status !== undefined) return new ProviderError(`The model server rejected the request (${status}): ${detail}`, { status, retryable: false });
    // No status: an error event inside the stream.
    return new ProviderError(`The model server reported an error in the stream: ${detail}`, { retryable: true });
  }
  // Anything else is the stream breaking off (socket closed, malformed event, ...).
  const reason = error instanceof Error ? redact(error.message).slice(0, 200) : 'unknown error';
  return new ProviderError(`The model stream broke off: ${reason}`, { retryable: true });
}

// Removes the configured key, and anything shaped like an OpenAI key, from text bound for logs.
function secretRedactor(apiKey: string) {
  return (text: string) => {
    let safe = apiKey ? text.split(apiKey).join('[redacted]') : text;
    safe = safe.replace(/\bsk-[A-Za-z0-9_*-]{6,}/g, 'sk-[redacted]');
    return safe;
  };
}

import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../server/trpc/root';

export type FieldErrors = Record<string, string[] | undefined>;

export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError && error.message) return error.message;
  return fallback;
}

// The product spec's error catalogue: a non-success answer that is not JSON (a proxy's 502 page, a plain-text 503)
// becomes an error reading the status code, a colon and a space, then the body text, or the
// status text when the body is empty. A long body (an HTML error page) is cut at 200 characters.
const maxBodyText = 200;
export function httpErrorText(status: number, statusText: string, body: string): string {
  const text = body.trim();
  const shown = text.length > maxBodyText ? `${text.slice(0, maxBodyText - 1)}\u2026` : text;
  return `${status}: ${shown || statusText || status}`;
}

/** A non-success answer that was not JSON; its message is the '{status}: {body}' text. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The HttpError behind an error (itself, or the cause of a tRPC client error). */
export function httpErrorOf(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof TRPCClientError && error.cause instanceof HttpError) return error.cause;
  return undefined;
}

/** The error for a non-success, non-JSON answer; undefined for a success or a JSON answer. */
export async function nonJsonFailure(res: Response): Promise<HttpError | undefined> {
  if (res.ok || /\bjson\b/i.test(res.headers.get('content-type') ?? '')) return undefined;
  const body = await res.text().catch(() => '');
  return new HttpError(res.status, httpErrorText(res.status, res.statusText, body));
}

/** fetch for the tRPC link: a non-JSON error answer throws its '{status}: {body}' text. */
export async function fetchWithHttpErrors(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const res = await fetch(input, init);
  const failure = await nonJsonFailure(res);
  if (failure) throw failure;
  return res;
}

export function errorStatus(error: unknown): number | undefined {
  return error instanceof TRPCClientError ? (error as TRPCClientError<AppRouter>).data?.httpStatus : undefined;
}

// Server field errors (architecture rule 15), flattened to the first message a field has.
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  const fields = ((error as TRPCClientError<AppRouter>).data?.fieldErrors ?? {}) as FieldErrors;
  return Object.fromEntries(
    Object.entries(fields).flatMap(([key, messages]) => (messages?.[0] ? [[key, messages[0]]] : [])),
  );
}

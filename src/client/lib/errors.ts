import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../server/trpc/root';

export type FieldErrors = Record<string, string[] | undefined>;

export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError && error.message) return error.message;
  return fallback;
}

export function errorStatus(error: unknown): number | undefined {
  return error instanceof TRPCClientError ? (error as TRPCClientError<AppRouter>).data?.httpStatus : undefined;
}

// Server field errors (CONVENTIONS 4), flattened to the first message a field has.
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  const fields = ((error as TRPCClientError<AppRouter>).data?.fieldErrors ?? {}) as FieldErrors;
  return Object.fromEntries(
    Object.entries(fields).flatMap(([key, messages]) => (messages?.[0] ? [[key, messages[0]]] : [])),
  );
}

// The one check every input passes where it enters the server (the JSON parser of the REST
// paths, the base tRPC procedure that tRPC, REST and /ws all call, and /ws frames): text that
// PostgreSQL cannot store or that is not valid Unicode, and bodies nested deeper than any real
// input, are refused with a 400 that names the field, before a handler or the database sees them.
import { z, type ZodError } from 'zod';
import { commonTexts } from '../../shared/texts/index.js';

/** Deeper than any input the app takes (the deepest is two levels); JSON bombs stop here. */
export const maxInputDepth = 16;

export type InputProblem = { field: string; path: string[]; message: string };

// NUL (PostgreSQL text cannot hold it) and UTF-16 surrogates that are not part of a pair.
const unsafeText = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function hasUnsafeText(text: string): boolean {
  return unsafeText.test(text);
}

/** The first problem in a parsed input (strings, keys, depth), or null when it may go on. */
export function findInputProblem(value: unknown, path: string[] = [], depth = 0): InputProblem | null {
  const field = path.length ? path.join('.') : 'input';
  if (typeof value === 'string') {
    return hasUnsafeText(value) ? { field, path, message: commonTexts.unsafeText(field) } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth >= maxInputDepth) return { field, path, message: commonTexts.tooDeep };
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries) {
    if (hasUnsafeText(key)) return { field, path, message: commonTexts.unsafeText(field) };
    const problem = findInputProblem(item, [...path, key], depth + 1);
    if (problem) return problem;
  }
  return null;
}

/** The problem as the validation error the schemas would give: same 400, message and fieldErrors. */
export function inputProblemError(problem: InputProblem): ZodError {
  // Made by zod itself so that it is the same kind of error as a schema's (an Error subclass).
  const refusal = z.unknown().superRefine((_value, ctx) => ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message }));
  return refusal.safeParse(null).error!;
}

// Parsers for route search params (validateSearch). Route options other than the component are
// part of the entry script that every page loads, the landing page included, so these are small
// functions rather than zod schemas (no zod on the landing path). Each behaves as the
// `z.….optional().catch(undefined)` it replaces: a value that does not fit is dropped, never an
// error page. The router has already JSON-parsed the values (?chat=5 is the number 5).

/** A boolean, or nothing. */
export const optionalBoolean = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

/** A positive safe integer (an id), or nothing. */
export const optionalId = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;

/** One of the given strings, or nothing. */
export const optionalOneOf = <const T extends readonly string[]>(choices: T, value: unknown): T[number] | undefined =>
  typeof value === 'string' && choices.includes(value) ? value : undefined;

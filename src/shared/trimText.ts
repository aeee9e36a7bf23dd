// Trimming and cutting text without regular expressions that end in `+$` or `*$`: a search for
// such a pattern tries every start position and scans to the end from each, which is quadratic on
// a long run of the trimmed characters (`GET /` followed by 16,000 slashes once took 255 ms). These
// loops look at each character once.

const whitespace = (ch: string) => ch.trim() === '';

/** `text` without the characters at its end for which `drop` holds. */
export function trimEndWhere(text: string, drop: (ch: string) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** `text` without the characters at its start for which `drop` holds. */
export function trimStartWhere(text: string, drop: (ch: string) => boolean): string {
  let start = 0;
  while (start < text.length && drop(text[start]!)) start++;
  return text.slice(start);
}

/** `text` without any of `chars` at its end ('/' for trailing slashes). */
export function trimEndChars(text: string, chars: string): string {
  return trimEndWhere(text, (ch) => chars.includes(ch));
}

/** `text` without any of `chars` at either end. */
export function trimChars(text: string, chars: string): string {
  return trimStartWhere(trimEndChars(text, chars), (ch) => chars.includes(ch));
}

/** `text` without trailing whitespace or any of `chars`. */
export function trimEndSpaceAnd(text: string, chars: string): string {
  return trimEndWhere(text, (ch) => whitespace(ch) || chars.includes(ch));
}

/** Cuts the last, partly cut word and the whitespace before it (what `replace(/\s+\S*$/, '')` did). */
export function dropLastWord(text: string): string {
  const beforeWord = trimEndWhere(text, (ch) => !whitespace(ch));
  if (beforeWord.length === 0) return text;
  return trimEndWhere(beforeWord, whitespace);
}

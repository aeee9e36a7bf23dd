// Text from outside the app (what a user typed, a meeting's display names, mail subjects) goes into
// a system message only inside a fence of triple quotes, introduced as data: a fence mark inside
// the text is broken up, so the text cannot close the fence and speak as instructions after it.

const fenceMark = '"""';

/** The text inside a fence, on lines of its own. */
export function fence(text: string): string {
  return `${fenceMark}\n${unfenced(text.trim())}\n${fenceMark}`;
}

/** The text with any run of three or more double quotes turned into typographic quotes. */
export function unfenced(text: string): string {
  return text.replace(/"{3,}/g, (run) => '”'.repeat(run.length));
}

// A search snippet from the server is HTML-escaped text with <mark>…</mark> around matched words
// (searchChats.ts). It is turned into plain parts here, never rendered as HTML; and the coach's
// markdown is taken out ('**Options:**' must not read as it was typed), the marks kept.
export type SnippetPart = { text: string; marked: boolean };

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };
const decode = (text: string) => text.replace(/&(?:amp|lt|gt);/g, (entity) => entities[entity] ?? entity);

// The marks, while the markdown is taken out: two characters no message holds (the server keeps
// control characters out of stored text, and they are removed below before they are used).
const open = '\u0001';
const close = '\u0002';

/**
 * The snippet's text without markdown syntax: links and images as their text, emphasis, strike
 * and code marks, and the marks that begin a line (headings, quotes, list bullets, numbers kept).
 * Each pattern is linear (no nested quantifiers), whatever the text.
 */
export function plainMarkdown(text: string): string {
  return (
    text
      // [text](url) and ![alt](url): the text.
      .replace(/!?\[([^\]\n]{0,300})\]\([^)\s]{0,500}(?:\s"[^"\n]{0,200}")?\)/g, '$1')
      // A link cut by the fragment's end keeps its text: 'text](/app?ch'.
      .replace(/\]\([^)\s]{0,500}$/g, '')
      // Headings, quotes and bullets at the start of a line.
      .replace(/^[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+)/gm, '')
      // Strong, emphasis, strike and code marks.
      .replace(/\*{2,3}|_{2,3}|~~|`+/g, '')
      // A lone * or _ beside a word (the mark characters count as the word's edge).
      .replace(/(^|[\s(\u0001])[*_](?=[^\s*_])/g, '$1')
      .replace(/([^\s*_])[*_](?=$|[\s).,:;!?\u0002])/g, '$1')
      // Table rules: a line of only pipes, colons, dashes and blanks, with a run of three dashes.
      .split('\n')
      .filter((line) => !(line.includes('---') && /^[ \t|:-]+$/.test(line)))
      .join('\n')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

export function snippetParts(snippet: string): SnippetPart[] {
  // The marks as single characters (only those closed), the rest decoded: one plain string.
  let marked = '';
  // indexOf, not a lazy regex: an unclosed <mark> must not make the scan quadratic.
  let last = 0;
  const clean = (text: string) => decode(text).replace(/[\u0001\u0002]/g, '');
  for (;;) {
    const start = snippet.indexOf('<mark>', last);
    const end = start < 0 ? -1 : snippet.indexOf('</mark>', start + 6);
    if (end < 0) break;
    marked += `${clean(snippet.slice(last, start))}${open}${clean(snippet.slice(start + 6, end))}${close}`;
    last = end + 7;
  }
  marked += clean(snippet.slice(last));
  const plain = plainMarkdown(marked);
  const parts: SnippetPart[] = [];
  let at = 0;
  while (at < plain.length) {
    const begin = plain.indexOf(open, at);
    if (begin < 0) {
      parts.push({ text: plain.slice(at), marked: false });
      break;
    }
    if (begin > at) parts.push({ text: plain.slice(at, begin), marked: false });
    const stop = plain.indexOf(close, begin + 1);
    const text = plain.slice(begin + 1, stop < 0 ? plain.length : stop);
    if (text) parts.push({ text, marked: true });
    at = stop < 0 ? plain.length : stop + 1;
  }
  return parts;
}

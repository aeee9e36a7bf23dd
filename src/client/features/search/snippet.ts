// A search snippet from the server is HTML-escaped text with <mark>…</mark> around matched words
// (searchChats.ts). It is turned into plain parts here, never rendered as HTML.
export type SnippetPart = { text: string; marked: boolean };

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };
const decode = (text: string) => text.replace(/&(?:amp|lt|gt);/g, (entity) => entities[entity] ?? entity);

export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  // indexOf, not a lazy regex: an unclosed <mark> must not make the scan quadratic.
  let last = 0;
  for (;;) {
    const open = snippet.indexOf('<mark>', last);
    const close = open < 0 ? -1 : snippet.indexOf('</mark>', open + 6);
    if (close < 0) break;
    if (open > last) parts.push({ text: decode(snippet.slice(last, open)), marked: false });
    parts.push({ text: decode(snippet.slice(open + 6, close)), marked: true });
    last = close + 7;
  }
  if (last < snippet.length) parts.push({ text: decode(snippet.slice(last)), marked: false });
  return parts;
}

// A search snippet from the server is HTML-escaped text with <mark>…</mark> around matched words
// (searchChats.ts). It is turned into plain parts here, never rendered as HTML.
export type SnippetPart = { text: string; marked: boolean };

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };
const decode = (text: string) => text.replace(/&(?:amp|lt|gt);/g, (entity) => entities[entity] ?? entity);

export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const pattern = /<mark>([\s\S]*?)<\/mark>/g;
  let last = 0;
  for (const match of snippet.matchAll(pattern)) {
    if (match.index > last) parts.push({ text: decode(snippet.slice(last, match.index)), marked: false });
    parts.push({ text: decode(match[1]!), marked: true });
    last = match.index + match[0].length;
  }
  if (last < snippet.length) parts.push({ text: decode(snippet.slice(last)), marked: false });
  return parts;
}

// Fails, with file:line, when a comment in src/ cites an issue by number ("issue 22", "Issues 22
// and 25", "issue #7"). No issue tracker is in the repository, so such a number tells a reader
// nothing: a comment says the reason itself. Only comments are read (a user-facing string may say
// what it likes); "architecture rule N" points at docs/architecture.md and is fine.
// Run by scripts/depcheck.mjs (`npm run depcheck`), or alone: `node scripts/citations.mjs [dir]`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const citation = /\bissues?\s+#?\d+/i;
const extensions = /\.(?:[cm]?[jt]sx?|css|html)$/;

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (extensions.test(entry.name)) yield path;
  }
}

/** Each comment line of a source file with its line number. Strings and templates are skipped. */
function commentLinesOf(text) {
  const lines = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '\n') {
      line += 1;
      i += 1;
    } else if (c === '/' && (next === '/' || next === '*')) {
      const end = next === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : next === '/' ? end : end + 2;
      for (const part of text.slice(i, stop).split('\n')) {
        lines.push({ line, text: part });
        line += 1;
      }
      line -= 1;
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && !(c !== '`' && text[j] === '\n')) {
        if (text[j] === '\\') j += 1;
        j += 1;
      }
      line += text.slice(i, j + 1).split('\n').length - 1;
      i = j + 1;
    } else {
      i += 1;
    }
  }
  return lines;
}

export function citationsIn(dir) {
  const found = [];
  for (const file of filesUnder(dir)) {
    for (const comment of commentLinesOf(readFileSync(file, 'utf8'))) {
      if (citation.test(comment.text)) {
        found.push(`${relative(process.cwd(), file)}:${comment.line}: ${comment.text.trim()}`);
      }
    }
  }
  return found;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] ? process.argv[2] : join(root, 'src');
const found = citationsIn(dir);
if (found.length > 0) {
  console.error(`A comment cites an issue by number; no issue is in the repository, so say the reason instead:\n${found.join('\n')}`);
  process.exit(1);
}

// Keeps docs/architecture.md's area index ("Where each area lives") true: every path in the table
// exists, and every server and client feature folder, schema file and entity appears in it.
// Run by scripts/depcheck.mjs (`npm run depcheck`), or alone: `node scripts/areaIndex.mjs`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The table's columns after the area's name, and the folder each column's paths are under.
const columns = ['src/server', 'src/client', 'src/shared/schemas', 'src/shared/texts', 'src/server/db/entities', 'test/server', 'test/e2e'];

const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
const section = doc.split('\n## Where each area lives\n')[1]?.split('\n## ')[0];
if (!section) {
  console.error('docs/architecture.md has no "## Where each area lives" section');
  process.exit(1);
}
const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Area') && !line.startsWith('| ---'));
const problems = [];
const named = new Set();
for (const row of rows) {
  const cells = row.split('|').slice(2, -1);
  if (cells.length !== columns.length) problems.push(`a row has ${cells.length} columns after its area, not ${columns.length}: ${row.slice(0, 80)}`);
  cells.forEach((cell, i) => {
    for (const [, path] of cell.matchAll(/`([^`]+)`/g)) {
      const full = join(columns[i] ?? '', path);
      named.add(full.replace(/\/$/, ''));
      if (!existsSync(join(root, full))) problems.push(`${full} (area "${row.split('|')[1]?.trim()}") does not exist`);
    }
  });
}
const entries = (dir, keep) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter(keep)
    .map((entry) => join(dir, entry.name));
const expected = [
  ...entries('src/server/features', (entry) => entry.isDirectory()),
  ...entries('src/client/features', (entry) => entry.isDirectory()),
  ...entries('src/shared/schemas', (entry) => entry.name.endsWith('.ts')),
  ...entries('src/server/db/entities', (entry) => entry.name.endsWith('.ts') && entry.name !== 'index.ts'),
];
for (const path of expected) {
  if (!named.has(path)) problems.push(`${path} is in no row of the area index`);
}
if (problems.length > 0) {
  console.error(`docs/architecture.md's area index is out of date:\n${problems.join('\n')}`);
  process.exit(1);
}

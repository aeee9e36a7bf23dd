// Sums the JSON reports of Vitest and Playwright written during CI into one closing line,
// 'N passed, N failed', that any CI reader understands.
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  if (file.startsWith('vitest')) {
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  } else if (file.startsWith('playwright')) {
    passed += (report.stats?.expected ?? 0) + (report.stats?.flaky ?? 0);
    failed += report.stats?.unexpected ?? 0;
    skipped += report.stats?.skipped ?? 0;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

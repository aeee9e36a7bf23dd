import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from '@babel/parser';
import { check } from 'recheck';
import { describe, expect, it } from 'vitest';

// No regular expression in src/ is super-linear. Every regex literal and every
// `new RegExp('...')` / `RegExp('...')` with a constant pattern is read from the syntax tree and
// checked by recheck's automaton checker; a `RegExp` built from a value the tree cannot see must be
// listed below with the reason it is safe.
//
// The checker's verdict on a pattern depends only on the pattern, its flags and recheck's version,
// so verdicts are kept in redos.verdicts.json beside this file: a run checks only the patterns
// that file does not hold for the installed recheck (new or changed ones), which took the check
// from about 60 s (333 patterns, 15 of them running into the checker's time limit) to the few
// seconds a changed pattern needs. REDOS_FULL=1 checks every pattern again; REDOS_RECORD=1 checks
// the missing ones with a longer time limit and writes the file (only the patterns in src/ now).

const root = path.resolve(import.meta.dirname, '../../src');

/**
 * Patterns built at run time, by file, reviewed by hand (recheck cannot see them here): none is
 * built from a request's text; each is a fixed word list or a field label from the code.
 */
const reviewedDynamic: Record<string, string> = {
  'server/providers/ai/offline/language.ts': 'time and period phrases from fixed word lists of the offline coach',
  'server/providers/ai/offline/listen.ts': 'the feeling pattern, from a fixed word list of the offline coach',
  'shared/goalDraft.ts': 'number ranges and dates from a fixed number pattern and the month names',
  'server/features/writingStyle/analyzeStyle.test.ts': 'a test, never run on input',
  'server/features/coach/safety/screen.ts': 'each list of phrase literals (each checked above) joined into one alternation behind a no-word-character lookbehind; never built from input',
  'server/features/memories/memoryRules.ts': 'commitment and person patterns from fixed word lists, run on at most the first 2,000 characters of a message',
};

type Found = { file: string; line: number; source: string; flags: string };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

type Node = { type: string; loc?: { start: { line: number } }; [key: string]: unknown };

function walk(node: unknown, visit: (node: Node) => void) {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
  visit(node as Node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'start' || key === 'end' || key === 'extra') continue;
    if (value && typeof value === 'object') walk(value, visit);
  }
}

function constantString(node: Node | undefined): string | null {
  if (!node) return null;
  if (node.type === 'StringLiteral') return node.value as string;
  if (node.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0) {
    return ((node.quasis as Node[])[0]!.value as { cooked: string }).cooked;
  }
  return null;
}

function regexesOf(file: string): { found: Found[]; dynamic: number[] } {
  const text = readFileSync(file, 'utf8');
  const ast = parse(text, { sourceType: 'module', plugins: ['typescript', ...(file.endsWith('.tsx') ? (['jsx'] as const) : [])] });
  const found: Found[] = [];
  const dynamic: number[] = [];
  const rel = path.relative(root, file);
  walk(ast.program, (node) => {
    const line = node.loc?.start.line ?? 0;
    if (node.type === 'RegExpLiteral') found.push({ file: rel, line, source: node.pattern as string, flags: node.flags as string });
    if ((node.type === 'NewExpression' || node.type === 'CallExpression') && (node.callee as Node).type === 'Identifier' && (node.callee as Node).name === 'RegExp') {
      const [pattern, flags] = node.arguments as Node[];
      const source = constantString(pattern);
      if (source === null) dynamic.push(line);
      else found.push({ file: rel, line, source, flags: constantString(flags) ?? '' });
    }
  });
  return { found, dynamic };
}

type Verdict = 'safe' | 'unknown';
const verdictsFile = path.join(import.meta.dirname, 'redos.verdicts.json');
const recheckVersion = (createRequire(import.meta.url)('recheck/package.json') as { version: string }).version;

/** Verdicts recorded by this recheck version (none when the file was made by another). */
function recordedVerdicts(): Record<string, Verdict> {
  try {
    const file = JSON.parse(readFileSync(verdictsFile, 'utf8')) as { recheck: string; checker: string; verdicts: Record<string, Verdict> };
    return file.recheck === recheckVersion && file.checker === 'automaton' ? file.verdicts : {};
  } catch {
    return {};
  }
}

const files = sourceFiles(root);
const all = files.map(regexesOf);
const regexes = all.flatMap((r) => r.found);

describe('regular expressions in src/', () => {
  it('finds the regexes of the code (the walk is not blind)', () => {
    expect(regexes.length).toBeGreaterThan(50);
    expect(regexes.some((r) => r.file.endsWith('goalCheckInCall.ts'))).toBe(true);
  });

  it('builds no RegExp from a value it cannot check, unless reviewed', () => {
    const unreviewed = files.flatMap((file, i) => (all[i]!.dynamic.length && !reviewedDynamic[path.relative(root, file)] ? [`${path.relative(root, file)}:${all[i]!.dynamic.join(',')}`] : []));
    expect(unreviewed).toEqual([]);
  });

  // recheck's automaton checker proves a pattern super-linear (or safe) without running it, so the
  // answer does not depend on the machine's load; a pattern it cannot decide within its time
  // ('unknown': too large an automaton) is reported, not failed.
  it('has no super-linear (ReDoS-prone) regex', { timeout: 600_000 }, async () => {
    const unique = new Map<string, Found[]>();
    for (const r of regexes) unique.set(`/${r.source}/${r.flags}`, [...(unique.get(`/${r.source}/${r.flags}`) ?? []), r]);
    const recorded = recordedVerdicts();
    const record = process.env.REDOS_RECORD === '1';
    const flagged: string[] = [];
    const undecided: string[] = [];
    const checked: Record<string, Verdict> = {};
    for (const [key, places] of unique) {
      const first = places[0]!;
      const where = places.map((p) => `${p.file}:${p.line}`).join(', ');
      let verdict = process.env.REDOS_FULL === '1' ? undefined : recorded[key];
      if (!verdict) {
        const result = await check(first.source, first.flags, { checker: 'automaton', timeout: record ? 10_000 : 3_000 });
        if (result.status === 'vulnerable') {
          flagged.push(`${key} (${result.complexity.summary}) at ${where}`);
          continue;
        }
        verdict = result.status === 'safe' ? 'safe' : 'unknown';
        checked[key] = verdict;
      }
      if (verdict === 'unknown') undecided.push(`${key} at ${where}`);
    }
    if (undecided.length) console.warn(`recheck could not decide ${undecided.length} patterns:\n${undecided.join('\n')}`);
    const unrecorded = Object.keys(checked);
    if (record && !flagged.length) {
      const verdicts = Object.fromEntries([...unique.keys()].sort().map((key) => [key, checked[key] ?? recorded[key]!]));
      writeFileSync(verdictsFile, `${JSON.stringify({ recheck: recheckVersion, checker: 'automaton', verdicts }, null, 2)}\n`);
    } else if (unrecorded.length) {
      console.warn(`${unrecorded.length} patterns checked now are not in ${path.basename(verdictsFile)}; REDOS_RECORD=1 records them:\n${unrecorded.join('\n')}`);
    }
    expect(flagged).toEqual([]);
  });

  it('flags a quadratic pattern (the checker is not blind)', async () => {
    expect((await check('/+$', '')).status).toBe('vulnerable');
  });
});

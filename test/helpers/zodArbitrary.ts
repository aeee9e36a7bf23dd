import fc from 'fast-check';
import { z } from 'zod';

// fast-check values generated from the app's own zod schemas (through their JSON Schema, which
// zod derives itself), so that a new procedure's input is fuzzed without writing a generator.
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
};

export function arbitraryFromZod(schema: z.ZodType): fc.Arbitrary<unknown> {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return fc.jsonValue();
  }
  return fromJsonSchema(json, 0);
}

/**
 * One object holding any of the fields of all these schemas (each generated as its own schema
 * says): a REST body that names the right fields whatever the path, without a map of paths.
 */
export function mergedFieldsArbitrary(schemas: z.ZodType[]): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  const collect = (schema: JsonSchema) => {
    for (const [key, s] of Object.entries(schema.properties ?? {})) fields[key] ??= fromJsonSchema(s, 1);
    for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) collect(alternative);
  };
  for (const schema of schemas) {
    try {
      collect(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
    } catch {
      // a schema without a JSON form adds no fields
    }
  }
  return fc.record(fields, { requiredKeys: [] });
}

function fromJsonSchema(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => fromJsonSchema(s, depth + 1)));
  if (schema.allOf?.length) return fromJsonSchema(schema.allOf[0]!, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, s]) => [key, fromJsonSchema(s, depth + 1)]));
      return fc.record(properties, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    case 'array':
      return fc.array(schema.items ? fromJsonSchema(schema.items, depth + 1) : fc.jsonValue(), { maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'string': {
      if (schema.format === 'email') return fc.emailAddress();
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      const minLength = Math.min(schema.minLength ?? 0, maxLength);
      return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'binary' }));
    }
    case 'integer': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000_000);
      // Small values find the rows that exist (ids 1, 2, ...); the whole range finds the edges.
      return fc.oneof(fc.integer({ min: Math.max(min, 1), max: Math.max(Math.min(max, 8), Math.max(min, 1)) }), fc.integer({ min, max }));
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// What an attacker or a broken client sends instead: text the database cannot hold in one field,
// a field of the wrong type, extra keys, deep nesting, or anything at all.
const badTexts = ['\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ud83d', '\u0000\ud800'];

export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.tuple(valid, fc.nat(), fc.constantFrom(...badTexts)).map(([value, n, bad]) => injectText(value, n, bad)) },
    { weight: 3, arbitrary: fc.tuple(valid, fc.constantFrom(...badTexts)).map(([value, bad]) => mapLeaves(value, (leaf) => `${leaf.slice(0, 20)}${bad}`)) },
    { weight: 1, arbitrary: fc.tuple(valid, fc.nat(), fc.jsonValue({ maxDepth: 2 })).map(([value, n, other]) => replaceLeaf(value, n, other)) },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })).map(([value, extra]) =>
        value && typeof value === 'object' && !Array.isArray(value) ? { ...extra, ...value } : extra,
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 17, max: 200 }).map((depth) => nested(depth)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

export function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** True when the value holds a NUL or a lone surrogate somewhere (keys included). */
export function holdsBadText(value: unknown): boolean {
  const bad = (text: string) => /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
  if (typeof value === 'string') return bad(value);
  if (Array.isArray(value)) return value.some(holdsBadText);
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => bad(k) || holdsBadText(v));
  return false;
}

function injectText(value: unknown, n: number, bad: string): unknown {
  const leaves = stringLeaves(value);
  if (!leaves.length) return value && typeof value === 'object' && !Array.isArray(value) ? { ...value, note: bad } : bad;
  const target = leaves[n % leaves.length]!;
  return mapLeaves(value, (leaf, index) => (index === target ? `${leaf}${bad}` : leaf));
}

function replaceLeaf(value: unknown, n: number, other: unknown): unknown {
  let count = 0;
  const total = countLeaves(value);
  if (!total) return other;
  const target = n % total;
  return walk(value, (leaf) => (count++ === target ? other : leaf));
}

function stringLeaves(value: unknown): number[] {
  const indexes: number[] = [];
  let i = 0;
  walk(value, (leaf) => {
    if (typeof leaf === 'string') indexes.push(i);
    i++;
    return leaf;
  });
  return indexes;
}

function countLeaves(value: unknown): number {
  let i = 0;
  walk(value, (leaf) => (i++, leaf));
  return i;
}

function mapLeaves(value: unknown, f: (leaf: string, index: number) => unknown): unknown {
  let i = 0;
  return walk(value, (leaf) => {
    const index = i++;
    return typeof leaf === 'string' ? f(leaf, index) : leaf;
  });
}

function walk(value: unknown, f: (leaf: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => walk(item, f));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, f)]));
  return f(value);
}

/**
 * Hostile inputs for the fuzz properties. Cases are small descriptions (a 70 KB string is `{ $rep: ['x', 70000] }`,
 * 20,000 levels of nesting are `{ kind: 'deep', depth: 20000 }`), turned into bytes only when sent, so that a
 * counterexample fast-check prints is short enough to read and paste.
 */
import fc from 'fast-check';
import { expand } from './kit.js';

// ---------------------------------------------------------------------------------------------------------------
// JSON, as a tree that can hold what JSON.stringify cannot: duplicate keys, `__proto__` as a plain key, strings
// far too long to print.

export type J =
  | null
  | boolean
  | number
  | string
  | J[]
  | { $obj: [string, J][] }
  /** `s` repeated `n` times, as a JSON string. */
  | { $rep: [string, number] };

export function isObj(j: J): j is { $obj: [string, J][] } {
  return typeof j === 'object' && j !== null && !Array.isArray(j) && '$obj' in j;
}

/** JSON text for `j`; keys are written in order, duplicates and all. */
export function serialize(j: J): string {
  if (j === null || typeof j !== 'object') {
    // JSON has no NaN or Infinity: a generator that makes one means a number the server must refuse, so write the
    // closest thing JSON can say (an out-of-range literal parses to Infinity).
    if (typeof j === 'number' && !Number.isFinite(j)) return Number.isNaN(j) ? 'null' : j > 0 ? '1e999' : '-1e999';
    return JSON.stringify(typeof j === 'string' ? expand(j) : j);
  }
  if (Array.isArray(j)) return `[${j.map(serialize).join(',')}]`;
  if ('$rep' in j) return JSON.stringify(j.$rep[0].repeat(j.$rep[1]));
  return `{${j.$obj.map(([k, v]) => `${JSON.stringify(k)}:${serialize(v)}`).join(',')}}`;
}

export const obj = (entries: [string, J][]): J => ({ $obj: entries });

export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'isPrototypeOf',
] as const;

/** Strings that have broken servers before. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\u202eevil',
  '\ufeff',
  '😀'.repeat(3),
  'null',
  'undefined',
  'NaN',
  'true',
  '-0',
  '1e309',
  '0x10',
  '../../../../etc/passwd',
  '..\\..\\windows',
  '%2e%2e%2f',
  '%00',
  '%zz',
  '<script>alert(1)</script>',
  "'; DROP TABLE channels; --",
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'ch_00000000000000000000000000000000',
  'sc_00000000000000000000000000000000',
  'javascript:alert(1)',
  'data:text/html,<b>x</b>',
  'https://127.0.0.1:1/x',
  'http://169.254.169.254/latest/meta-data/',
  '#zzzzzz',
  'rgba(1,2,3,4,5)',
  '«a×101»',
  'A_1',
  '\r\nX-Injected: 1',
];

const NASTY_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  1e15,
  1e15 + 1,
  -1e15,
  1e16,
  1e300,
  -1e300,
  5e-324,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  Infinity,
  -Infinity,
  99,
  100,
  101,
  360000000,
  360000001,
];

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
);

export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...NASTY_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A string 1 KB to 70 KB long: across the 64 KiB body limit, the 2 KiB hook log, every field limit. */
export const hugeString: fc.Arbitrary<J> = fc
  .tuple(fc.constantFrom('x', 'é', '😀', '\u0000', '"', '\\'), fc.integer({ min: 1_000, max: 70_000 }))
  .map(([s, n]) => ({ $rep: [s, Math.ceil(n / Buffer.byteLength(JSON.stringify(s)))] as [string, number] }));

export const leaf: fc.Arbitrary<J> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** Arbitrary JSON with hostile keys (prototype keys, known field names, duplicates) and values. */
export function hostileJson(keys: readonly string[]): fc.Arbitrary<J> {
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...keys) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
    { weight: 2, arbitrary: nastyString },
  );
  const { tree } = fc.letrec<{ tree: J }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 4, arbitrary: leaf },
      { weight: 2, arbitrary: fc.array(tie('tree'), { maxLength: 4 }) },
      { weight: 3, arbitrary: fc.array(fc.tuple(key, tie('tree')), { maxLength: 5 }).map(obj) },
    ),
  }));
  return tree;
}

// ---------------------------------------------------------------------------------------------------------------
// Bodies built from the OpenAPI document's request schemas: the right field names with values that are right,
// at the limits, one past them or hostile, so that requests get past "unknown field" into the real checks.

export interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  example?: unknown;
  default?: unknown;
}

export interface SchemaContext {
  components: Record<string, Schema>;
  /** Names to try for free-form keys (`additionalProperties`): input names, mapping fields. */
  keys: readonly string[];
  /** Real ids to offer string fields whose name ends in Id or Ids (`sceneId`, `channelIds`). */
  ids: readonly string[];
}

function toJ(v: unknown): J {
  if (v === null || typeof v !== 'object') return v as J;
  if (Array.isArray(v)) return v.map(toJ);
  return obj(Object.entries(v).map(([k, x]) => [k, toJ(x)]));
}

const MAX_SCHEMA_DEPTH = 6;

export function fromSchema(schema: Schema, ctx: SchemaContext, depth = 0, field = ''): fc.Arbitrary<J> {
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop()!;
    const target = ctx.components[name];
    return target ? fromSchema(target, ctx, depth, field) : leaf;
  }
  const variants = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  if (variants) return fc.oneof(...variants.map((s) => fromSchema(s, ctx, depth + 1, field)));
  if (depth > MAX_SCHEMA_DEPTH) return leaf;
  const hostile = fc.oneof(leaf, hostileJson(ctx.keys));
  const typed = typedFromSchema(schema, ctx, depth, field);
  return fc.oneof({ weight: 5, arbitrary: typed }, { weight: 1, arbitrary: hostile });
}

function typedFromSchema(schema: Schema, ctx: SchemaContext, depth: number, field: string): fc.Arbitrary<J> {
  if (schema.enum) return fc.constantFrom(...schema.enum.map(toJ));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = Object.entries(schema.properties ?? {});
      const known = props.map(([name, s]) => fc.tuple(fc.constant(name), fromSchema(s, ctx, depth + 1, name)));
      const free =
        schema.additionalProperties && typeof schema.additionalProperties === 'object'
          ? fc.tuple(
              fc.oneof(fc.constantFrom(...ctx.keys), nastyString),
              fromSchema(schema.additionalProperties, ctx, depth + 1),
            )
          : fc.tuple(fc.oneof(fc.constantFrom(...PROTO_KEYS), nastyString), leaf);
      const knownEntries =
        known.length > 0
          ? fc.subarray(known).chain((arbs) => (arbs.length > 0 ? fc.tuple(...arbs) : fc.constant<[string, J][]>([])))
          : fc.constant([]);
      return fc
        .tuple(
          knownEntries as fc.Arbitrary<[string, J][]>,
          fc.array(free, {
            maxLength: schema.additionalProperties && typeof schema.additionalProperties === 'object' ? 6 : 1,
          }),
        )
        .map(([a, b]) => obj([...a, ...b]));
    }
    case 'array': {
      const item = schema.items ? fromSchema(schema.items, ctx, depth + 1, field) : leaf;
      const arrays: fc.Arbitrary<J>[] = [fc.array(item, { maxLength: Math.min(schema.maxItems ?? 4, 4) })];
      // One past the limit, with one repeated item: the count is what is checked.
      if (schema.maxItems !== undefined && schema.maxItems < 1100)
        arrays.push(item.map((x) => Array.from({ length: schema.maxItems! + 1 }, () => x)));
      return fc.oneof(...arrays);
    }
    case 'string': {
      const options: fc.Arbitrary<J>[] = [fc.string({ maxLength: 12 }), nastyString];
      if (/Ids?$/.test(field) && ctx.ids.length > 0) options.push(fc.constantFrom(...ctx.ids));
      if (typeof schema.example === 'string') options.push(fc.constant(schema.example));
      if (schema.maxLength !== undefined) {
        options.push(
          fc.constant<J>({ $rep: ['a', schema.maxLength] }),
          fc.constant<J>({ $rep: ['a', schema.maxLength + 1] }),
        );
      }
      if (/url$/i.test(field))
        options.push(fc.webUrl(), fc.constantFrom('https://[::1]/', 'https://10.0.0.1/', 'ftp://x'));
      if (/email$/i.test(field)) options.push(fc.emailAddress());
      return fc.oneof(...options);
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1e6;
      const max = schema.maximum ?? 1e6;
      return fc.oneof(
        fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
        fc.constantFrom(min, max, min - 1, max + 1, (min + max) / 2 + 0.5),
        nastyNumber,
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return leaf;
  }
}

/**
 * Bodies the schema accepts, or that break it in one place only: required fields present, values within their
 * limits, real ids where a field names one; then, half the time, one field of the top object replaced by a hostile
 * value. These get past validation into the route itself (conflicts, limits, endpoint checks) far more often than
 * free-form fuzz does.
 */
export function nearValid(schema: Schema, ctx: SchemaContext): fc.Arbitrary<J> {
  const valid = validFromSchema(schema, ctx, 0, '');
  const broken = fc.tuple(valid, fc.nat(), fc.oneof(leaf, hostileJson(ctx.keys))).map(([j, n, bad]): J => {
    if (!isObj(j) || j.$obj.length === 0) return j;
    const entries = [...j.$obj];
    const at = n % entries.length;
    entries[at] = [entries[at]![0], bad];
    return obj(entries);
  });
  return fc.oneof(valid, broken);
}

function validFromSchema(schema: Schema, ctx: SchemaContext, depth: number, field: string): fc.Arbitrary<J> {
  if (schema.$ref) {
    const target = ctx.components[schema.$ref.split('/').pop()!];
    return target ? validFromSchema(target, ctx, depth, field) : leaf;
  }
  const variants = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  if (variants) return fc.oneof(...variants.map((v) => validFromSchema(v, ctx, depth + 1, field)));
  if (schema.enum) return fc.constantFrom(...schema.enum.map(toJ));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      if (depth > MAX_SCHEMA_DEPTH) return fc.constant(obj([]));
      const props = Object.entries(schema.properties ?? {});
      const required = new Set(schema.required ?? []);
      const entry = ([name, s]: [string, Schema]) =>
        fc.tuple(fc.constant(name), validFromSchema(s, ctx, depth + 1, name));
      const must = props.filter(([name]) => required.has(name)).map(entry);
      const may = props.filter(([name]) => !required.has(name)).map(entry);
      const free =
        schema.additionalProperties && typeof schema.additionalProperties === 'object'
          ? fc.array(
              fc.tuple(fc.constantFrom(...ctx.keys), validFromSchema(schema.additionalProperties, ctx, depth + 1, '')),
              { maxLength: 3 },
            )
          : fc.constant<[string, J][]>([]);
      const optional = fc
        .subarray(may, { maxLength: Math.min(3, may.length) })
        .chain((arbs): fc.Arbitrary<[string, J][]> => (arbs.length > 0 ? fc.tuple(...arbs) : fc.constant([])));
      const required_ = must.length > 0 ? fc.tuple(...must) : fc.constant<[string, J][]>([]);
      return fc.tuple(required_, optional, free).map(([a, b, c]) => obj([...a, ...b, ...c]));
    }
    case 'array': {
      if (depth > MAX_SCHEMA_DEPTH) return fc.constant([]);
      const item = schema.items ? validFromSchema(schema.items, ctx, depth + 1, field) : leaf;
      const min = schema.minItems ?? 0;
      return fc.array(item, { minLength: min, maxLength: Math.max(min, Math.min(schema.maxItems ?? 3, 3)) });
    }
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 40, 40);
      const options: fc.Arbitrary<J>[] = [fc.string({ minLength: Math.max(1, min), maxLength: Math.max(1, max) })];
      if (/Ids?$/.test(field) && ctx.ids.length > 0) options.push(fc.constantFrom(...ctx.ids));
      if (typeof schema.example === 'string') options.push(fc.constant(schema.example));
      if (/url$/i.test(field)) options.push(fc.webUrl({ validSchemes: ['https'] }));
      if (/email$/i.test(field)) options.push(fc.emailAddress());
      return fc.oneof(...options);
    }
    case 'integer':
      return fc.integer({ min: Math.ceil(schema.minimum ?? 0), max: Math.floor(schema.maximum ?? 1_000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return leaf;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Bodies as sent: JSON that is hostile in shape rather than content, text that is not JSON, bytes that are not UTF-8.

export type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: J }
  /** fc.jsonValue(), as JSON.stringify writes it. */
  | { kind: 'jsonValue'; value: unknown }
  /** Valid JSON nested `depth` levels deep. */
  | { kind: 'deep'; depth: number; shape: 'array' | 'object' | 'proto' | 'group' }
  | { kind: 'text'; text: string }
  /** Raw bytes, most of them not UTF-8. */
  | { kind: 'bytes'; bytes: number[] }
  /** JSON that is valid up to `cut` characters of `value`'s text. */
  | { kind: 'truncated'; value: J; cut: number };

function deepText(depth: number, shape: 'array' | 'object' | 'proto' | 'group'): string {
  switch (shape) {
    case 'array':
      return '['.repeat(depth) + ']'.repeat(depth);
    case 'object':
      return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    case 'proto':
      return '{"__proto__":'.repeat(depth) + '{"polluted":true}' + '}'.repeat(depth);
    case 'group': {
      // A scene whose elements nest groups `depth` deep (SceneDefinition → GroupElement.children).
      const open = '{"type":"group","x":0,"y":0,"width":1,"height":1,"children":[';
      return `{"name":"Deep","definition":{"elements":[${open.repeat(depth)}${']}'.repeat(depth)}]}}`;
    }
  }
}

export function bodyBytes(spec: BodySpec): Buffer | undefined {
  switch (spec.kind) {
    case 'none':
      return undefined;
    case 'json':
      return Buffer.from(serialize(spec.value));
    case 'jsonValue':
      return Buffer.from(JSON.stringify(spec.value) ?? 'null');
    case 'deep':
      return Buffer.from(deepText(spec.depth, spec.shape));
    case 'text':
      return Buffer.from(spec.text);
    case 'bytes':
      return Buffer.from(spec.bytes);
    case 'truncated':
      return Buffer.from(serialize(spec.value).slice(0, spec.cut));
  }
}

/** Byte sequences that are not UTF-8, inside otherwise plausible JSON text. */
export const invalidUtf8: fc.Arbitrary<number[]> = fc
  .tuple(
    fc.constantFrom(
      [0xff],
      [0xc0, 0xae],
      [0xed, 0xa0, 0x80],
      [0xf8, 0x88, 0x80, 0x80, 0x80],
      [0xe2, 0x82],
      [0x80],
      [0xfe, 0xff],
    ),
    fc.constantFrom('{"scoreA":"', '{"name":"', '{"', '"', ''),
  )
  .map(([bad, prefix]) => [...Buffer.from(prefix), ...bad, ...Buffer.from(prefix ? '"}' : '')]);

export function bodySpec(json: fc.Arbitrary<J>): fc.Arbitrary<BodySpec> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) },
    { weight: 8, arbitrary: json.map((value): BodySpec => ({ kind: 'json', value })) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value): BodySpec => ({ kind: 'jsonValue', value })) },
    {
      weight: 2,
      arbitrary: fc
        .record({
          depth: fc.integer({ min: 1_000, max: 30_000 }),
          shape: fc.constantFrom('array' as const, 'object' as const, 'proto' as const, 'group' as const),
        })
        .map((d): BodySpec => ({ kind: 'deep', ...d })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('name', 'home', 'scoreA', 'url', 'mapping', 'x'), hugeString)
        .map(([k, s]): BodySpec => ({ kind: 'json', value: obj([[k, s]]) })),
    },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }).map((text): BodySpec => ({ kind: 'text', text })) },
    { weight: 1, arbitrary: invalidUtf8.map((bytes): BodySpec => ({ kind: 'bytes', bytes })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(json, fc.nat())
        .map(([value, n]): BodySpec => ({ kind: 'truncated', value, cut: n % Math.max(1, serialize(value).length) })),
    },
  );
}

/** Content types: JSON ones the server must take, and every way to be almost JSON. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/merge-patch+json',
      'application/problem+json',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonp',
      'application/json-seq',
      'application/json; charset=latin1',
      'application/json, text/plain',
      'application/+json',
      ';application/json',
      'application/json\t',
      '*/*',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }).map(sendable) },
);

// ---------------------------------------------------------------------------------------------------------------
// Paths and queries.

/** A path segment in place of a real id: traversal, escapes, NUL, latin1 bytes, very long. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '..',
      '.',
      '../',
      '../..',
      '..%2f..%2fkeys',
      '%2e%2e%2f%2e%2e%2f',
      '%2e%2e',
      '%252e%252e%252f',
      '..%5c..%5c',
      '%c0%ae%c0%ae%c0%af',
      '%00',
      'ch_x%00.json',
      '%',
      '%zz',
      '%E0%A4%A',
      '%ff%fe',
      '\xff\xfe',
      '%20',
      '%0d%0aX-Injected:%201',
      '%3f%23',
      'ch_00000000000000000000000000000000',
      'CH_00000000000000000000000000000000',
      'sc_',
      'null',
      'undefined',
      '__proto__',
      'constructor',
      'prototype',
      '*',
      '%2a',
      'me',
      '«a×100»',
      '«a×101»',
      '«a×3000»',
    ),
  },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).map(encodeLoose) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }).map(encodeLoose) },
);

export interface QueryParam {
  name: string;
  schema?: Schema;
}

/** `?…` text: the route's own parameters with good, boundary and hostile values, unknown ones, broken escapes. */
/** encodeURIComponent, with lone surrogates (which it refuses) sent as the bytes they would be in CESU-8. */
export function encodeLoose(s: string): string {
  return [...s].map((ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');
}

export function queryString(params: readonly QueryParam[], ctx: SchemaContext): fc.Arbitrary<string> {
  const encoded = encodeLoose;
  const value: fc.Arbitrary<string> = fc.oneof(
    fc.string({ maxLength: 12 }).map(encoded),
    nastyNumber.map(String),
    fc.constantFrom('', '%', '%zz', '%E0%A4%A', '%00', '\xff', '1%00', '0', '-1', '1e2', '101', 'true', '1'),
    fc.constant('«a×5000»'),
  );
  const own = params.map((p) =>
    fc.tuple(
      fc.constant(p.name),
      fc.oneof(
        p.schema
          ? fromSchema(p.schema, ctx, MAX_SCHEMA_DEPTH).map((j) =>
              encoded(typeof j === 'string' ? j : serialize(j).replace(/^"|"$/g, '')),
            )
          : value,
        value,
      ),
    ),
  );
  const name = fc.oneof(
    ...(params.length > 0 ? [fc.constantFrom(...params.map((p) => p.name))] : []),
    fc.constantFrom('__proto__', 'constructor', '%zz', 'limit[]', 'x', '', '%00'),
    fc.string({ maxLength: 8 }).map(encoded),
  );
  const pair = fc.oneof(...own, fc.tuple(name, value));
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('?', '?&', '?=', '?&&=&', '?#frag', '??') },
    {
      weight: 6,
      arbitrary: fc
        .array(pair, { minLength: 1, maxLength: 4 })
        .map((pairs) => `?${pairs.map(([k, v]) => (v === '' ? k : `${k}=${v}`)).join('&')}`),
    },
  );
}

/**
 * What undici lets through as a header value: tab, visible ASCII, latin1; no other control characters (CR, LF, NUL
 * and the rest go over a raw socket instead, in raw-http.test.ts).
 */
export function sendable(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, '').trim();
}

export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 40 }).map(sendable),
  fc.constantFrom('', ' ', '«a×256»', '«a×3000»', '\xff\xfe', 'é', '*', 'null'),
);

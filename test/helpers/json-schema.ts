/**
 * A small JSON Schema (2020-12) checker for the OGraf v1 schemas (test/fixtures/ograf-schema, the spec's files): the
 * keywords those schemas use — type, const, enum, minimum, pattern, properties, patternProperties,
 * additionalProperties, required, items, propertyNames, allOf, oneOf, if/then and $ref. A `$ref` is resolved against
 * the `$id` of the document it is in (so `#/components/…` and `../json-schemas/…` work in an OpenAPI document added
 * by its URL) and may end in a JSON pointer. A `$ref` to the JSON Schema meta-schema (which the GDD object schema
 * names) is not followed: any object passes it.
 */
import fs from 'node:fs';
import path from 'node:path';

type Schema = boolean | { [keyword: string]: unknown };

const META = 'https://json-schema.org/draft/2020-12/schema';

export interface SchemaSet {
  /** Every failure, as `path: message`; none means valid. `id` is a document's `$id`, with any `#/pointer`. */
  validate(id: string, value: unknown): string[];
}

/** The JSON schemas in `dir`, by their `$id`. */
export function schemasIn(dir: string): Map<string, unknown> {
  const byId = new Map<string, unknown>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const schema = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { $id: string };
    byId.set(schema.$id, schema);
  }
  return byId;
}

export function loadSchemas(dir: string): SchemaSet {
  return schemaSet(schemasIn(dir));
}

/** Checks against `documents` (by URL): the `$ref`s between them are resolved, none outside them is. */
export function schemaSet(documents: Map<string, unknown>): SchemaSet {
  /** The schema `ref` names, resolved against `base`, and the document it is in (the base of its own refs). */
  const resolve = (ref: string, base: string): { schema: Schema; base: string } => {
    const url = new URL(ref, base);
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = '';
    const document = documents.get(url.href);
    if (document === undefined) throw new Error(`unknown $ref ${ref} (from ${base})`);
    let schema: unknown = document;
    for (const token of fragment.split('/').slice(1)) {
      const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
      if (!isObject(schema) || !(key in schema)) throw new Error(`unknown $ref ${ref} (from ${base})`);
      schema = schema[key];
    }
    return { schema: schema as Schema, base: url.href };
  };

  const check = (schema: Schema, value: unknown, at: string, out: string[], base: string): void => {
    if (schema === true) return;
    if (schema === false) return void out.push(`${at}: not allowed`);
    checkObject(schema, value, at, out, base);
  };

  function checkObject(s: Record<string, unknown>, value: unknown, at: string, out: string[], base: string): void {
    if (typeof s.$ref === 'string' && s.$ref !== META) {
      const target = resolve(s.$ref, base);
      check(target.schema, value, at, out, target.base);
    }
    if (s.type !== undefined && !typeMatches(s.type, value))
      return void out.push(`${at}: must be ${JSON.stringify(s.type)}`);
    if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value))
      out.push(`${at}: must be ${JSON.stringify(s.const)}`);
    if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
      out.push(`${at}: must be one of ${JSON.stringify(s.enum)}`);
    if (typeof s.minimum === 'number' && typeof value === 'number' && value < s.minimum)
      out.push(`${at}: below minimum`);
    if (typeof s.pattern === 'string' && typeof value === 'string' && !new RegExp(s.pattern, 'u').test(value))
      out.push(`${at}: must match ${s.pattern}`);
    if (Array.isArray(value) && s.items !== undefined)
      value.forEach((item, i) => check(s.items as Schema, item, `${at}/${i}`, out, base));
    if (isObject(value)) checkProperties(s, value, at, out, base);
    for (const sub of (s.allOf as Schema[] | undefined) ?? []) check(sub, value, at, out, base);
    if (Array.isArray(s.oneOf)) {
      const passing = (s.oneOf as Schema[]).filter((sub) => errorsOf(sub, value, at, base).length === 0).length;
      if (passing !== 1) out.push(`${at}: must match exactly one of oneOf (matched ${passing})`);
    }
    if (s.if !== undefined && errorsOf(s.if as Schema, value, at, base).length === 0 && s.then !== undefined)
      check(s.then as Schema, value, at, out, base);
  }

  function checkProperties(
    s: Record<string, unknown>,
    value: Record<string, unknown>,
    at: string,
    out: string[],
    base: string,
  ): void {
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    const patterns = Object.entries((s.patternProperties ?? {}) as Record<string, Schema>);
    for (const name of (s.required as string[] | undefined) ?? []) {
      if (!(name in value)) out.push(`${at}: missing ${name}`);
    }
    for (const [name, v] of Object.entries(value)) {
      const where = `${at}/${name}`;
      if (s.propertyNames !== undefined) check(s.propertyNames as Schema, name, `${where} (name)`, out, base);
      const own = properties[name];
      const matching = patterns.filter(([p]) => new RegExp(p, 'u').test(name));
      if (own !== undefined) check(own, v, where, out, base);
      for (const [, sub] of matching) check(sub, v, where, out, base);
      if (own === undefined && matching.length === 0 && s.additionalProperties !== undefined)
        check(s.additionalProperties as Schema, v, where, out, base);
    }
  }

  function errorsOf(schema: Schema, value: unknown, at: string, base: string): string[] {
    const out: string[] = [];
    check(schema, value, at, out, base);
    return out;
  }

  return {
    validate(id, value) {
      const { schema, base } = resolve(id, id);
      return errorsOf(schema, value, '', base);
    },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeMatches(type: unknown, value: unknown): boolean {
  const types = Array.isArray(type) ? (type as string[]) : [type as string];
  return types.some((t) => {
    if (t === 'integer') return Number.isInteger(value);
    if (t === 'number') return typeof value === 'number';
    if (t === 'array') return Array.isArray(value);
    if (t === 'object') return isObject(value);
    if (t === 'null') return value === null;
    return typeof value === t;
  });
}

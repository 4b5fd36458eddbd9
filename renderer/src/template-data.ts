/**
 * Parses the `data` CasparCG hands to a template's `update(data)`: either a JSON object of
 * name → value, or the classic XML
 * `<templateData><componentData id="name"><data id="text" value="..."/></componentData></templateData>`.
 * Written without DOMParser so the unit tests run in Node; the XML is flat and machine-made.
 */
import type { InputValue } from '@onair/protocol';

export function parseTemplateData(data: string): Record<string, InputValue> {
  const trimmed = data.trim();
  if (trimmed === '') return {};
  if (trimmed.startsWith('<')) return parseXml(trimmed);
  return parseJson(trimmed);
}

/** Merges an update into the page's overrides; `null` drops an override, back to the channel's value. */
export function mergeOverrides(
  current: Readonly<Record<string, InputValue>>,
  update: Readonly<Record<string, InputValue>>,
): Record<string, InputValue> {
  const next: Record<string, InputValue> = { ...current };
  for (const [name, value] of Object.entries(update)) {
    if (value === null) delete next[name];
    else next[name] = value;
  }
  return next;
}

function parseJson(text: string): Record<string, InputValue> {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('update data must be a JSON object');
  }
  const values: Record<string, InputValue> = {};
  for (const [name, v] of Object.entries(parsed as Record<string, unknown>)) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      values[name] = v;
    } else {
      values[name] = JSON.stringify(v);
    }
  }
  return values;
}

const COMPONENT = /<componentData\b([^>]*)>([\s\S]*?)<\/componentData\s*>/g;
const DATA = /<data\b([^>]*?)\/?>/g;

function parseXml(xml: string): Record<string, InputValue> {
  const values: Record<string, InputValue> = {};
  for (const [, attrs = '', body = ''] of xml.matchAll(COMPONENT)) {
    const id = attribute(attrs, 'id');
    if (id === undefined) continue;
    const value = componentValue(body);
    if (value !== undefined) values[id] = value;
  }
  return values;
}

/** The `data id="text"` entry, or failing that the first `data` with a value. */
function componentValue(body: string): string | undefined {
  let first: string | undefined;
  for (const [, attrs = ''] of body.matchAll(DATA)) {
    const value = attribute(attrs, 'value');
    if (value === undefined) continue;
    if (attribute(attrs, 'id') === 'text') return value;
    first ??= value;
  }
  return first;
}

function attribute(attrs: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  if (!match) return undefined;
  return decodeEntities(match[1] ?? match[2] ?? '');
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return codePoint(parseInt(ref.slice(2), 16), whole);
    if (ref.startsWith('#')) return codePoint(parseInt(ref.slice(1), 10), whole);
    return Object.prototype.hasOwnProperty.call(NAMED, ref) ? (NAMED[ref] as string) : whole;
  });
}

function codePoint(n: number, fallback: string): string {
  return n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : fallback;
}

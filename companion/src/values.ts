/** Turning what an operator typed into the value an input takes. */
import type { InputDef, InputValue } from '@onair/protocol';

/** A typed value as the input's type reads it: numbers and booleans parsed, lists as JSON, the rest as text. */
export function parseValue(raw: string, def: InputDef | undefined): InputValue {
  const t = raw.trim();
  switch (def?.type) {
    case 'number': {
      const n = Number(t);
      if (t === '' || !Number.isFinite(n)) throw new Error(`"${raw}" is not a number`);
      return n;
    }
    case 'boolean':
      return /^(true|1|on|yes)$/i.test(t);
    case 'list':
      return JSON.parse(t) as InputValue;
    default:
      return raw;
  }
}

/** A JSON object of input names to values (set several inputs, update on air). */
export function parseObject(raw: string): Record<string, InputValue> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Error('Not JSON: write an object such as {"scoreA": 3}');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('Write a JSON object such as {"scoreA": 3}');
  }
  return value as Record<string, InputValue>;
}

/** `m:ss`, `h:mm:ss` or seconds (a sign allowed, for adjust) in milliseconds. */
export function parseTime(raw: string): number {
  const t = raw.trim();
  const m = /^([+-])?(\d+(?:\.\d+)?)(?::(\d{1,2}(?:\.\d+)?))?(?::(\d{1,2}(?:\.\d+)?))?$/.exec(t);
  if (!m) throw new Error(`"${raw}" is not a time: write m:ss, h:mm:ss or seconds`);
  const parts = [m[2], m[3], m[4]].filter((p): p is string => p !== undefined).map(Number);
  const seconds = parts.reduce((acc, p) => acc * 60 + p, 0);
  return Math.round(seconds * 1000) * (m[1] === '-' ? -1 : 1);
}

/**
 * The NUL character (U+0000) in text a client sends is refused where the text comes in (docs/api.md, "JSON"): Postgres
 * `text` cannot hold it while SQLite can, so a NUL let in would be stored on one store and fail a write on the other
 * (a 500, or a tick's write long after the request was answered). Request bodies and URLs, WebSocket messages,
 * incoming-hook posts and OGraf manifests are checked with this; a data source's values by its mapping.
 */
import { AppError } from './errors.js';

export const NUL_RULE = 'must not contain the NUL character (U+0000)';

/**
 * The dotted path of the first string in `value` (a key or a value) that holds U+0000; '' for `value` itself, null
 * when none does. A key holding it is named with the NUL written as `\u0000`, so the path can be shown and stored.
 */
export function nulPathIn(value: unknown, at = ''): string | null {
  if (typeof value === 'string') return value.includes('\0') ? at : null;
  if (typeof value !== 'object' || value === null) return null;
  const under = (key: string) => (at === '' ? key : `${at}.${key}`);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPathIn(value[i] as unknown, under(String(i)));
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0')) return under(visibleNul(key));
    const found = nulPathIn(item, under(key));
    if (found !== null) return found;
  }
  return null;
}

/**
 * Why parsed JSON is refused when its text spells U+0000 in a string (400 invalid_request naming where), or null. JSON
 * spells it one way only, the escape `\u0000` (a raw NUL is not JSON): text without it is let through without a walk.
 */
export function nulInJson(text: string, value: unknown): AppError | null {
  if (!text.includes('\\u0000')) return null;
  const path = nulPathIn(value);
  return path === null ? null : nulError(path);
}

export function nulError(path: string): AppError {
  const at = path === '' ? '(body)' : path;
  return new AppError('invalid_request', `${at}: ${NUL_RULE}`, { errors: [{ path: at, message: NUL_RULE }] });
}

/** Text shown or stored as it came (a log's excerpt of a body, an error quoting it), a NUL written as `\u0000`. */
export function visibleNul(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '\\u0000') : text;
}

/**
 * The rules the server enforces and its clients check before sending, each written once with the one message
 * that states it (docs/scenes.md, "Names", "Colours and fills", "Clocks"; docs/api.md, "Triggers and clocks", "Limits";
 * docs/incoming-hooks.md, "Mapping"). A message is the part after the field's name, as the API's `errors[].message` says it.
 */

/** Input, element, trigger and clock names. */
export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const NAME_RULE = 'must be 1–64 letters, digits or _, not starting with a digit';

/** Names that would reach Object.prototype where a name is a key: refused for anything a scene declares. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
]);
export const RESERVED_NAME_RULE = 'is a reserved name';

/** A whole colour or image source that is `{name}` of an input. */
export const WHOLE_PLACEHOLDER = /^\{([A-Za-z_][A-Za-z0-9_]{0,63})\}$/;
/** A colour: `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`. */
export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

const HOUR_MS = 3_600_000;
/** The time a clock may be set to (and start from, or stop at): 0 to 100 hours, in milliseconds. */
export const MAX_CLOCK_MS = 100 * HOUR_MS;
export const CLOCK_SET_RULE = 'between 0 and 360000000 (100 h)';
/** How far one `adjust` may move a clock: a day either way. */
export const MAX_CLOCK_ADJUST_MS = 24 * HOUR_MS;
export const CLOCK_ADJUST_RULE = 'between -86400000 and 86400000 (24 h)';

/** The largest request body, and the largest WebSocket message, the server reads. */
export const MAX_BODY_BYTES = 64 * 1024;
export const BODY_LIMIT_RULE = 'Request bodies are limited to 64 KiB.';

/**
 * A field of an incoming hook's mapping: a name, or a dotted path of up to 8 names into nested objects. The
 * source also serves as an HTML `pattern` (which compiles with the `v` flag, where a bare `-` in a class is an
 * error: hence `\-`). The names that reach an object's prototype are not field names (isFieldPath).
 */
export const FIELD_PATH_SOURCE = '[A-Za-z0-9_\\-]{1,64}(\\.[A-Za-z0-9_\\-]{1,64}){0,7}';
export const FIELD_PATH_PATTERN = new RegExp(`^${FIELD_PATH_SOURCE}$`);
const FIELD_PATH_RESERVED: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
export const FIELD_PATH_RULE =
  'must be a field name, or a dotted path of up to 8 names (letters, digits, _ and -; not __proto__, constructor or prototype)';

/** Whether `path` may be a mapping's field path (docs/incoming-hooks.md, "Mapping"). */
export function isFieldPath(path: string): boolean {
  return FIELD_PATH_PATTERN.test(path) && path.split('.').every((name) => !FIELD_PATH_RESERVED.has(name));
}

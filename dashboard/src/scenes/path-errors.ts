/**
 * Where the server's validation errors go in the editor: each `errors[].path` (`definition.elements.2.fontSize`)
 * names a field, an element, or the scene; the form shows an error at the most precise place it draws, and every
 * error is also listed at the top and under the JSON view.
 */
import type { FieldError } from '../api.js';

/** Messages for the field at `path`, or anything inside it. */
export function errorsAt(errors: readonly FieldError[], path: string): string[] {
  return errors.filter((e) => isUnder(e.path, path)).map((e) => e.message);
}

/**
 * The errors inside `prefix` that none of the `shown` fields (paths relative to `prefix`) displays, with their
 * paths made relative to `prefix`: an element's card lists these itself (a nested group child, a shadow…).
 */
export function unshownErrors(errors: readonly FieldError[], prefix: string, shown: readonly string[]): FieldError[] {
  return errors
    .filter((e) => isUnder(e.path, prefix) && !shown.some((key) => isUnder(e.path, `${prefix}.${key}`)))
    .map((e) => ({ path: e.path === prefix ? '' : e.path.slice(prefix.length + 1), message: e.message }));
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix + '.');
}

/** An element id for the control of a path (`f-definition-elements-2-fontSize`). */
export function fieldId(path: string): string {
  return 'f-' + path.replace(/[^A-Za-z0-9_-]+/g, '-');
}

/** Scrolls to and focuses the control of `path`, or the nearest card around it (an element, an input). */
export function focusPath(path: string): void {
  const parts = path.split('.');
  for (let n = parts.length; n > 0; n--) {
    const target = document.getElementById(fieldId(parts.slice(0, n).join('.')));
    if (target) {
      target.scrollIntoView({ block: 'center' });
      target.focus({ preventScroll: true });
      return;
    }
  }
}

/** What a problem says about one form field, shown right under that field, which points at it for screen readers. */
import { fieldErrors } from '../components/problem.js';

/** The messages for `path` (or `messages` when the caller has its own), in a line whose id the field names. */
export function FieldErrors({ error, path, id, messages }: FieldErrorsProps) {
  const shown = messages ?? fieldErrors(error, path);
  if (shown.length === 0) return null;
  return (
    <p class="field-error" id={id}>
      {shown.join('; ')}
    </p>
  );
}

interface FieldErrorsProps {
  error: unknown;
  path: string;
  id: string;
  messages?: string[];
}

/** Props for the field itself: marked invalid and described by its errors while there are any. */
export function invalid(
  error: unknown,
  path: string,
  id: string,
  messages?: string[],
): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  const shown = messages ?? fieldErrors(error, path);
  return shown.length > 0 ? { 'aria-invalid': true, 'aria-describedby': id } : {};
}

/** For a group of fields (a fieldset): described by its errors while there are any. */
export function describedBy(error: unknown, path: string, id: string): { 'aria-describedby'?: string } {
  return fieldErrors(error, path).length > 0 ? { 'aria-describedby': id } : {};
}

/** A time as people read it here; `none` when there is no time. */
export function when(iso: string | null, none = 'never'): string {
  return iso ? new Date(iso).toLocaleString() : none;
}

import type { FieldError } from '../api.js';
import { ApiError, describe } from '../api.js';

/** An error answer, said plainly, with the per-field errors listed (role=alert: screen readers hear it). */
export function Problem({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  const fields: FieldError[] = error instanceof ApiError ? error.errors : [];
  return (
    <div class="problem" role="alert">
      <p>{describe(error)}</p>
      {fields.length > 1 && (
        <ul>
          {fields.map((f) => (
            <li key={f.path}>
              <code>{f.path || '(body)'}</code>: {f.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The messages a problem names for one field path (exact, or under it). */
export function fieldErrors(error: unknown, path: string): string[] {
  if (!(error instanceof ApiError)) return [];
  return error.errors.filter((e) => e.path === path || e.path.startsWith(path + '.')).map((e) => e.message);
}

/**
 * The whole definition as JSON, in sync with the form: what is typed here replaces the form's copy as soon as it
 * parses; while it does not, the problem is said plainly and nothing is checked or previewed. The server's errors
 * are listed under it with their paths.
 */
import type { FieldError } from '../api.js';

export function JsonView({
  text,
  parseError,
  errors,
  readOnly,
  onInput,
}: {
  text: string;
  parseError: string | null;
  errors: readonly FieldError[];
  readOnly: boolean;
  onInput: (text: string) => void;
}) {
  const described = [parseError ? 'json-parse-error' : '', errors.length > 0 ? 'json-errors' : ''].filter(Boolean);
  return (
    <section class="editor-section json-view" aria-labelledby="json-title">
      <h2 id="json-title">Definition (JSON)</h2>
      <label for="scene-json" class="visually-hidden">
        Definition (JSON)
      </label>
      <textarea
        id="scene-json"
        class="mono"
        spellcheck={false}
        rows={30}
        readOnly={readOnly}
        value={text}
        aria-invalid={parseError !== null || errors.length > 0 ? 'true' : undefined}
        aria-describedby={described.length > 0 ? described.join(' ') : undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      {parseError && (
        <p class="field-error" id="json-parse-error" role="alert">
          {parseError}
        </p>
      )}
      {errors.length > 0 && (
        <ul class="field-errors" id="json-errors" aria-label="Problems in the definition">
          {errors.map((e, i) => (
            <li key={i} class="field-error">
              <code>{e.path || '(body)'}</code>: {e.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

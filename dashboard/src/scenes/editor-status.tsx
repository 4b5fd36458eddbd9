/** What the editor says about the draft: every problem the last check found, listed at the top, and its state. */
import { describe } from '../api.js';
import { Problem } from '../components/problem.js';
import type { DryRun } from './use-dry-run.js';

/**
 * Every error of the last check with its path (each is also shown at its field or element); choosing one shows
 * its field.
 */
export function ErrorSummary({
  dry,
  parseError,
  onShow,
}: {
  dry: DryRun;
  parseError: string | null;
  onShow: (path: string) => void;
}) {
  if (parseError !== null) {
    return (
      <div class="problem">
        <p>The JSON view does not hold a definition, so nothing is checked or previewed. Fix it there.</p>
      </div>
    );
  }
  if (dry.status === 'failed') return <Problem error={dry.problem} />;
  const { errors } = dry;
  if (errors.length === 0 && dry.status !== 'invalid') return null;
  return (
    <div class="problem error-summary" aria-live="polite">
      <p>
        {errors.length === 0
          ? describe(dry.problem)
          : `${errors.length === 1 ? 'One problem' : `${errors.length} problems`} to fix before saving:`}
      </p>
      {errors.length > 0 && (
        <ul aria-label="All problems">
          {errors.map((e, i) => (
            <li key={i}>
              <button type="button" class="link" onClick={() => onShow(e.path)}>
                <code>{e.path || '(body)'}</code>
              </button>
              : {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One line on the check and the preview, read out politely as it changes. */
export function CheckStatus({
  dry,
  parseError,
  writable,
}: {
  dry: DryRun;
  parseError: string | null;
  writable: boolean;
}) {
  const text = !writable
    ? 'The preview shows the saved scene.'
    : parseError !== null
      ? 'The JSON does not parse: the preview shows the last valid version.'
      : {
          idle: 'Checking soon…',
          checking: 'Checking…',
          valid: 'Valid: the preview shows this version.',
          invalid: 'Not valid: the preview shows the last valid version.',
          failed: 'Could not check: the preview shows the last valid version.',
        }[dry.status];
  return (
    <p class={`check-status ${dry.status}`} role="status" data-status={dry.status}>
      {text}
    </p>
  );
}

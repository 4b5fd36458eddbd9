/**
 * What a data source's dry run answered (POST …/sources/test): the fetch's status, size and time, why the source
 * would fail now, the values it would set, and the fields (or CSV columns) that map to nothing. Nothing was changed.
 */
import type { DryRun } from './sources-api.js';

export function DryRunResult({ result }: { result: DryRun }) {
  const { fetch, error, values, unmapped } = result;
  const entries = Object.entries(values);
  return (
    <section class="dry-run" aria-label="Test result">
      <h4>Test result (nothing was changed)</h4>
      <p>
        Fetched: {fetch.status === null ? 'no answer' : `HTTP ${fetch.status}`} · {fetch.bytes} bytes ·{' '}
        {Math.round(fetch.ms)} ms
      </p>
      {error !== null && <p class="field-error">Would fail: {error}</p>}
      {error === null && entries.length === 0 && <p class="hint">It would set no input.</p>}
      {entries.length > 0 && (
        <table class="list" aria-label="Values it would set">
          <thead>
            <tr>
              <th scope="col">Input</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([input, value]) => (
              <tr key={input}>
                <td>
                  <code>{input}</code>
                </td>
                <td>
                  <code>{JSON.stringify(value)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {error === null && (
        <p class="unmapped">
          {unmapped.length === 0 ? (
            'Every field is mapped.'
          ) : (
            <>
              Map to nothing:{' '}
              {unmapped.map((field, i) => (
                <span key={field}>
                  {i > 0 && ', '}
                  <code>{field}</code>
                </span>
              ))}
            </>
          )}
        </p>
      )}
    </section>
  );
}

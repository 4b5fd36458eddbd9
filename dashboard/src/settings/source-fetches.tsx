/**
 * A data source's last 50 fetches, newest first: when, the HTTP status, size, time, whether it changed anything on
 * air, and its error. Read when opened, then again whenever the source reports a newer fetch (its status is
 * polled by the section), so an open log follows the source without a read per fetch.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { ApiSchemas } from '../api-types.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { when } from './field-errors.js';
import { sourcePath, type Source } from './sources-api.js';

export function SourceFetches({ source }: { source: Source }) {
  const [open, setOpen] = useState(false);
  return (
    <details class="source-fetches" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Recent fetches</summary>
      {open && <FetchLog source={source} />}
    </details>
  );
}

function FetchLog({ source }: { source: Source }) {
  const path = `${sourcePath(source)}/fetches`;
  const { data, error, reload } = useLoad(
    () => api<ApiSchemas['SourceFetchList']>('GET', path),
    [path, source.status.lastFetchAt],
  );
  const failed = data?.data.filter((f) => f.error !== null).length ?? 0;
  return (
    <>
      <div class="row">
        <button type="button" class="quiet" onClick={() => void reload()}>
          Read the log again
        </button>
        {failed > 0 && <span class="status-disabled">{failed} failed</span>}
      </div>
      <Problem error={error} />
      {!data && !error && <p class="loading">Loading fetches…</p>}
      {data && data.data.length === 0 && <p class="empty">Not fetched yet.</p>}
      {data && data.data.length > 0 && (
        <table class="list" aria-label={`Recent fetches of ${source.name}`}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Status</th>
              <th scope="col">Bytes</th>
              <th scope="col">Time</th>
              <th scope="col">Changed</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {data.data.map((f, i) => (
              <tr key={`${f.at}-${i}`} data-status={f.status ?? 'none'}>
                <td>{when(f.at)}</td>
                <td class={f.error === null ? 'status-enabled' : 'status-disabled'}>{f.status ?? 'no answer'}</td>
                <td>{f.bytes}</td>
                <td>{Math.round(f.ms)} ms</td>
                <td>{f.changed ? 'yes' : 'no'}</td>
                <td class={f.error ? 'field-error' : undefined}>{f.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

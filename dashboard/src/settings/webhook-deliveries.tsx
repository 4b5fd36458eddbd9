/**
 * A subscription's delivery log, newest first. The API lists it oldest first with a forward cursor only, so the
 * page reads forward to its end (at most READ_PAGES pages per click, keeping the newest KEEP lines) and remembers
 * where the last page started: "Refresh" then reads only what came after.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { ApiSchemas } from '../api-types.js';
import { Problem } from '../components/problem.js';
import { when } from './field-errors.js';

type Attempt = ApiSchemas['WebhookAttempt'];

interface Log {
  /** Lines of full pages already read (they no longer change), oldest first, the newest KEEP of them. */
  settled: Attempt[];
  /** The last page read, which may still grow. */
  tail: Attempt[];
  /** Where to read from next: the start of `tail` when `atEnd`, else the page after the last one read. */
  cursor: string | undefined;
  atEnd: boolean;
  read: number;
}

const PAGE = 100;
const READ_PAGES = 20;
const KEEP = 1000;
const SHOW_STEP = 25;

async function readOn(path: string, from: Log): Promise<Log> {
  let { settled, cursor } = from;
  let read = from.read - from.tail.length; // the tail is read again
  for (let i = 0; i < READ_PAGES; i++) {
    const query = `?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await api<ApiSchemas['WebhookAttemptList']>('GET', path + query);
    if (!page.nextCursor) return { settled, tail: page.data, cursor, atEnd: true, read: read + page.data.length };
    settled = [...settled, ...page.data].slice(-KEEP);
    read += page.data.length;
    cursor = page.nextCursor;
  }
  return { settled, tail: [], cursor, atEnd: false, read };
}

const EMPTY: Log = { settled: [], tail: [], cursor: undefined, atEnd: false, read: 0 };

export function WebhookDeliveries({ path }: { path: string }) {
  const [log, setLog] = useState<Log | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(SHOW_STEP);
  const readMore = async (from: Log) => {
    setBusy(true);
    try {
      setLog(await readOn(path, from));
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    setLog(null);
    void readMore(EMPTY);
  }, [path]);
  const newestFirst = log ? [...log.settled, ...log.tail].reverse() : [];
  const rows = newestFirst.slice(0, shown);
  return (
    <div class="deliveries">
      <div class="row">
        <h3>Deliveries</h3>
        <button type="button" class="quiet" disabled={busy || !log} onClick={() => log && void readMore(log)}>
          {log && !log.atEnd ? 'Read newer entries' : 'Refresh'}
        </button>
      </div>
      <Problem error={error} />
      {!log && !error && <p class="loading">Loading deliveries…</p>}
      {log && !log.atEnd && (
        <p class="hint" role="status">
          The log is long: {log.read} entries read so far, and newer ones follow. "Read newer entries" reads on.
        </p>
      )}
      {log && newestFirst.length === 0 && <p class="empty">No attempts yet.</p>}
      {rows.length > 0 && (
        <table class="list" aria-label="Deliveries">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Outcome</th>
              <th scope="col">HTTP status</th>
              <th scope="col">Error</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr key={`${a.eventId}-${a.attempt}-${a.at}`} data-outcome={a.outcome} data-event={a.eventId}>
                <td>{when(a.at)}</td>
                <td>
                  <code>{a.type}</code>
                </td>
                <td>{a.attempt}</td>
                <td class={a.outcome === 'succeeded' ? 'status-enabled' : 'status-disabled'}>{a.outcome}</td>
                <td>{a.status ?? '—'}</td>
                <td class={a.error ? 'field-error' : undefined}>{a.error ?? ''}</td>
                <td>{a.durationMs === null ? '—' : `${Math.round(a.durationMs)} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {newestFirst.length > rows.length && (
        <button type="button" onClick={() => setShown(shown + SHOW_STEP)}>
          Show {Math.min(SHOW_STEP, newestFirst.length - rows.length)} older
        </button>
      )}
      {log && rows.length === newestFirst.length && log.read > newestFirst.length && (
        <p class="hint">Older entries are not kept on this page ({log.read} read in all).</p>
      )}
    </div>
  );
}

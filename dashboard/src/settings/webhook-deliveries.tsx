import { useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';

interface Attempt {
  eventId: string;
  type: string;
  attempt: number;
  outcome: 'succeeded' | 'failed' | 'dropped';
  status: number | null;
  error: string | null;
  durationMs: number | null;
  at: string;
}

/** A subscription's delivery log: every attempt and drop, newest first, with "Load more" for older pages. */
export function WebhookDeliveries({ path }: { path: string }) {
  const [pages, setPages] = useState(1);
  const { data, error, reload } = useLoad(async () => {
    const all: Attempt[] = [];
    let cursor: string | null = null;
    // The log is oldest first: read up to 20 pages of 100 and show the newest.
    for (let i = 0; i < 20; i++) {
      const page: Page<Attempt> = await api<Page<Attempt>>(
        'GET',
        `${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      all.push(...page.data);
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    return all.reverse();
  }, [path]);
  const shown = (data ?? []).slice(0, pages * 25);
  return (
    <div class="deliveries">
      <div class="row">
        <h3>Deliveries</h3>
        <button type="button" class="quiet" onClick={() => void reload()}>
          Refresh
        </button>
      </div>
      <Problem error={error} />
      {data && data.length === 0 && <p class="empty">No attempts yet.</p>}
      {shown.length > 0 && (
        <table class="list" aria-label="Deliveries">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Outcome</th>
              <th scope="col">Status</th>
              <th scope="col">Error</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((a) => (
              <tr key={`${a.eventId}-${a.attempt}-${a.at}`} data-outcome={a.outcome}>
                <td>{new Date(a.at).toLocaleTimeString()}</td>
                <td>
                  <code>{a.type}</code>
                </td>
                <td>{a.attempt}</td>
                <td class={a.outcome === 'succeeded' ? 'status-enabled' : 'status-disabled'}>{a.outcome}</td>
                <td>{a.status ?? '—'}</td>
                <td>{a.error ?? ''}</td>
                <td>{a.durationMs === null ? '' : `${Math.round(a.durationMs)} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && data.length > shown.length && (
        <button type="button" onClick={() => setPages(pages + 1)}>
          Load more
        </button>
      )}
    </div>
  );
}

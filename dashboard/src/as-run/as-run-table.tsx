/** The as-run lines as a table: one row per interval on program, in the order they began. */
import type { AsRunLine } from './as-run-api.js';

/** 8000 → "0:08"; an hour and more → "1:02:03". */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

function time(iso: string): string {
  return new Date(iso).toLocaleString();
}

export function AsRunTable({ lines }: { lines: AsRunLine[] }) {
  if (lines.length === 0) return <p class="empty">Nothing was on program in this range.</p>;
  return (
    <table class="as-run-table">
      <caption class="visually-hidden">Intervals on program, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Layer</th>
          <th scope="col">Scene</th>
          <th scope="col">Item</th>
          <th scope="col">Start</th>
          <th scope="col">End</th>
          <th scope="col">Duration</th>
          <th scope="col">Taken by</th>
          <th scope="col">Cleared by</th>
          <th scope="col">Confirmed</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.id} data-id={l.id}>
            <td>{l.layer}</td>
            <td>{l.sceneName}</td>
            <td>{l.label}</td>
            <td>
              <time dateTime={l.startAt}>{time(l.startAt)}</time>
            </td>
            <td>
              {l.endAt ? <time dateTime={l.endAt}>{time(l.endAt)}</time> : <span class="tally on">on air</span>}
              {l.endInferred && <span class="hint small"> (end inferred: the server stopped)</span>}
            </td>
            <td class="duration">{l.durationMs === null ? '' : duration(l.durationMs)}</td>
            <td>{l.takenBy.name}</td>
            <td>{l.clearedBy?.name ?? ''}</td>
            <td>
              {l.confirmedAt
                ? `by ${l.confirmedBy.length} output${l.confirmedBy.length === 1 ? '' : 's'} at ${new Date(l.confirmedAt).toLocaleTimeString()}`
                : 'not confirmed'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

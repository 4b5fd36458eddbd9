/**
 * A channel's as-run log (docs/dashboard.md, "As-run"): what was on program, when, for how long, who took and cleared
 * it and how many outputs confirmed it, for a time range, a page at a time; a scene filter over the lines loaded;
 * and the time range exported as CSV.
 */
import { useEffect, useState } from 'preact/hooks';
import { describe } from '../api.js';
import { getChannel } from '../channels-api.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { href } from '../router.js';
import { asRunCsv, listAsRun, type AsRunLine, type AsRunQuery } from './as-run-api.js';
import { AsRunTable } from './as-run-table.js';

/** A `datetime-local` value (the browser's local time) as ISO 8601 UTC, or null when empty. */
function toIso(local: string): string | null {
  return local ? new Date(local).toISOString() : null;
}

export function AsRunPage({ channelId }: { channelId: string }) {
  const { data: channel } = useLoad(() => getChannel(channelId), [channelId]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [query, setQuery] = useState<AsRunQuery>({ from: null, to: null });
  const [scene, setScene] = useState('');
  const [lines, setLines] = useState<AsRunLine[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  const [exportNote, setExportNote] = useState('');

  const load = async (q: AsRunQuery, after: string | null) => {
    setLoading(true);
    try {
      const page = await listAsRun(channelId, q, after);
      setLines((old) => (after ? [...old, ...page.data] : page.data));
      setCursor(page.nextCursor);
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => void load(query, null), [channelId, query]);

  const apply = (e: Event) => {
    e.preventDefault();
    setQuery({ from: toIso(from), to: toIso(to) });
  };
  const exportCsv = async () => {
    setExportNote('Exporting…');
    try {
      const csv = await asRunCsv(channelId, query);
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `as-run-${channelId}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setExportNote('');
    } catch (err) {
      setExportNote(describe(err));
    }
  };
  const scenes = [...new Set(lines.map((l) => l.sceneName))].sort();
  const shown = scene ? lines.filter((l) => l.sceneName === scene) : lines;

  return (
    <main id="main" class="page as-run">
      <p class="crumbs">
        <a href={href('channels')}>Channels</a> ›{' '}
        <a href={href('channels', channelId, 'live')}>{channel?.name ?? channelId}</a> › As-run
      </p>
      <h1>{channel ? `${channel.name}: as-run log` : 'As-run log'}</h1>
      <form class="as-run-filters" onSubmit={apply}>
        <label>
          From <input type="datetime-local" step="1" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        </label>
        <label>
          To <input type="datetime-local" step="1" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </label>
        <button type="submit">Show</button>
        <label>
          Scene{' '}
          <select value={scene} onChange={(e) => setScene(e.currentTarget.value)}>
            <option value="">All scenes</option>
            {scenes.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void exportCsv()}>
          Export CSV
        </button>
        <span class="hint small" role="status">
          {exportNote || 'The export holds the time range, every scene.'}
        </span>
      </form>
      {error ? <Problem error={error} /> : null}
      <AsRunTable lines={shown} />
      {cursor && (
        <p>
          <button type="button" disabled={loading} onClick={() => void load(query, cursor)}>
            Load more
          </button>
        </p>
      )}
      {loading && <p class="loading">Loading…</p>}
    </main>
  );
}

/**
 * A channel's data sources (docs/data-sources.md): the list with each source's state, read again every few seconds
 * while the page is visible so a source's first fetch, a failure or a recovery shows without a click; the form to add
 * one (channels:write), tried first with Test if wanted; and each source's card.
 */
import { useEffect } from 'preact/hooks';
import { api } from '../api.js';
import { channelInputs } from '../channels-api.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { can } from '../session.js';
import type { InputChoice } from './mapping-editor.js';
import { SourceCard } from './source-card.js';
import { bodyOf } from './source-draft.js';
import { SourceForm } from './source-form.js';
import { listSources, sourcesPath } from './sources-api.js';
import './sources.css';

/** How often the list is read again (12 of the workspace's 600 reads a minute). */
const POLL_MS = 5000;

export function DataSourcesSection({ channelId }: { channelId: string }) {
  const scenes = useLoad<InputChoice[]>(() => channelInputs(channelId), [channelId]);
  const list = useLoad(() => listSources(channelId), [channelId]);
  const { reload } = list;
  const error = scenes.error ?? list.error;
  const data = scenes.data && list.data ? { inputs: scenes.data, sources: list.data } : undefined;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [reload]);
  return (
    <section aria-labelledby="sources-title">
      <h2 id="sources-title">Data sources</h2>
      <p class="hint">
        A data source is a JSON feed or a CSV (a published Google Sheet, say) that onair fetches every few seconds,
        putting what changed on air. When a fetch fails, the graphic keeps the last good values and the source says why.
      </p>
      <Problem error={error} />
      {!data && !error && <p class="loading">Loading sources…</p>}
      {data && can('channels:write') && (
        <SourceForm
          channelId={channelId}
          inputs={data.inputs}
          title="New source"
          submitLabel="Add source"
          onSubmit={async (draft) => {
            await api('POST', sourcesPath(channelId), bodyOf(draft));
            await reload();
          }}
        />
      )}
      {data && data.sources.length === 0 && <p class="empty">No data sources yet.</p>}
      {data?.sources.map((source) => (
        <SourceCard key={source.id} source={source} inputs={data.inputs} onChanged={reload} />
      ))}
    </section>
  );
}

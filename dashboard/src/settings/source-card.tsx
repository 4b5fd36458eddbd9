/**
 * One data source: its state (OK, failing, paused, pending) and when it last fetched and changed something, its
 * last error and ETag, what it reads; Refresh now (inputs:write), Pause / Resume, Edit and Delete (channels:write),
 * and its recent fetches. A role without those permissions sees the source and its log, not the buttons.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Problem } from '../components/problem.js';
import { can } from '../session.js';
import { when } from './field-errors.js';
import type { InputChoice } from './mapping-editor.js';
import { changesOf } from './source-draft.js';
import { SourceFetches } from './source-fetches.js';
import { SourceForm } from './source-form.js';
import { describeRow, isSheetsLink, seconds, sourcePath, STATE_LABEL, type Source } from './sources-api.js';

export function SourceCard(props: { source: Source; inputs: InputChoice[]; onChanged: () => Promise<void> }) {
  const { source } = props;
  const path = sourcePath(source);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      await props.onChanged();
    }
  };
  const state = source.status.state;
  return (
    <div
      class={`panel source state-${state}`}
      role="group"
      aria-label={`Source ${source.name}`}
      data-source={source.id}
    >
      <div class="row">
        <h3>{source.name}</h3>
        <span class={`badge source-state state-${state}`} data-state={state}>
          {STATE_LABEL[state]}
        </span>
      </div>
      <SourceFacts source={source} />
      <SourceActions source={source} busy={busy} act={act} editing={editing} setEditing={setEditing} />
      <Problem error={error} />
      {editing && (
        <SourceForm
          channelId={source.channelId}
          inputs={props.inputs}
          initial={source}
          title={`Edit ${source.name}`}
          submitLabel="Save source"
          onSubmit={async (draft) => {
            await api('PATCH', path, changesOf(draft, source));
            setEditing(false);
            await props.onChanged();
          }}
        />
      )}
      <SourceFetches source={source} />
    </div>
  );
}

/** Refresh now for whoever may change inputs; pause, resume, edit and delete for whoever may change the channel. */
function SourceActions(props: {
  source: Source;
  busy: boolean;
  act: (action: () => Promise<unknown>) => Promise<void>;
  editing: boolean;
  setEditing: (editing: boolean) => void;
}) {
  const { source, busy, act, editing } = props;
  const path = sourcePath(source);
  const writable = can('channels:write');
  return (
    <div class="row">
      {can('inputs:write') && (
        <button
          type="button"
          disabled={busy || source.paused}
          onClick={() => void act(() => api('POST', `${path}/refresh`))}
        >
          Refresh now
        </button>
      )}
      {writable && (
        <>
          <button
            type="button"
            disabled={busy}
            onClick={() => void act(() => api('PATCH', path, { paused: !source.paused }))}
          >
            {source.paused ? 'Resume' : 'Pause'}
          </button>
          <button type="button" aria-expanded={editing} onClick={() => props.setEditing(!editing)}>
            {editing ? 'Close editor' : `Edit ${source.name}`}
          </button>
          <ConfirmButton
            question={`Delete ${source.name}? Polling stops; the values it set stay on air.`}
            confirmLabel="Delete source"
            onConfirm={() => act(() => api('DELETE', path))}
          >
            Delete {source.name}
          </ConfirmButton>
        </>
      )}
    </div>
  );
}

function SourceFacts({ source }: { source: Source }) {
  const { status } = source;
  const mapping = Object.entries(source.mapping);
  const type = source.type === 'json_url' ? 'JSON' : isSheetsLink(source.url) ? 'CSV (Google Sheet)' : 'CSV';
  return (
    <dl class="hook-facts source-facts">
      <dt>URL</dt>
      <dd>
        <code class="source-url">{source.url}</code> ({type}, every {seconds(source.intervalMs)})
      </dd>
      <dt>Last fetch</dt>
      <dd>{when(status.lastFetchAt)}</dd>
      <dt>Last change</dt>
      <dd>{when(status.lastChangeAt)}</dd>
      <dt>Last error</dt>
      <dd class={status.lastError ? 'field-error' : undefined}>{status.lastError ?? 'none'}</dd>
      <dt>ETag</dt>
      <dd>{status.etag === null ? 'none' : <code>{status.etag}</code>}</dd>
      <dt>Mapping</dt>
      <dd>
        {mapping.length === 0 ? (
          'none: each field sets the input of the same name'
        ) : (
          <ul>
            {mapping.map(([field, input]) => (
              <li key={field}>
                <code>{field}</code> → <code>{input}</code>
              </li>
            ))}
          </ul>
        )}
      </dd>
      {source.type === 'csv_url' && (
        <>
          <dt>Row</dt>
          <dd>{describeRow(source.row, status.cursor)}</dd>
        </>
      )}
      {source.table && (
        <>
          <dt>Table</dt>
          <dd>
            {source.table.path ? (
              <>
                the array at <code>{source.table.path}</code>
              </>
            ) : source.type === 'csv_url' ? (
              'every row'
            ) : (
              'the answer'
            )}{' '}
            → <code>{source.table.input}</code>
          </dd>
        </>
      )}
    </dl>
  );
}

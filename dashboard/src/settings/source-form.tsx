/**
 * A data source's form, to add one or edit one: its type, URL, name, interval, mapping (the incoming hooks' mapping
 * editor), for CSV the row it maps, and a table into a list input. **Test** makes the dry run (it fetches once and
 * changes nothing) with what is written so far; the server's refusals are shown at the fields they name.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { fieldErrors, Problem } from '../components/problem.js';
import { FieldErrors, invalid } from './field-errors.js';
import { duplicateFields, MappingEditor, type FieldWords, type InputChoice } from './mapping-editor.js';
import { DryRunResult } from './source-dry-run.js';
import { bodyOf, draftOf, type SourceDraft } from './source-draft.js';
import { CsvRowFields, TableFields } from './source-row-fields.js';
import { intervalHint, sourcesPath, type DryRun, type Source } from './sources-api.js';

const CSV_COLUMNS: FieldWords = {
  label: 'CSV column',
  placeholder: 'Home_Score',
  hint: (
    <>
      A column is named by its header, trimmed, with spaces as <code>_</code>: a column headed <code>Home Score</code>{' '}
      is <code>Home_Score</code>. No rows: every column sets the input of the same name.
    </>
  ),
};

export function SourceForm(props: {
  channelId: string;
  inputs: InputChoice[];
  initial?: Source;
  title: string;
  submitLabel: string;
  onSubmit: (draft: SourceDraft) => Promise<void>;
}) {
  const [draft, setDraft] = useState<SourceDraft>(() => draftOf(props.initial));
  const [error, setError] = useState<unknown>(null);
  const [tried, setTried] = useState<DryRun | null>(null);
  const [busy, setBusy] = useState<'saving' | 'testing' | null>(null);
  // A test result says what the form said when it was made: a change takes it away.
  const set = (change: Partial<SourceDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setTried(null);
  };
  const id = props.initial ? `source-${props.initial.id}` : 'new-source';
  const run = async (what: 'saving' | 'testing', act: () => Promise<void>) => {
    if (duplicateFields(draft.rows).size > 0) return; // said beside the rows
    setBusy(what);
    try {
      await act();
      setError(null);
    } catch (err) {
      setError(err);
      setTried(null);
    } finally {
      setBusy(null);
    }
  };
  const test = () =>
    run('testing', async () => {
      setTried(await api<DryRun>('POST', `${sourcesPath(props.channelId)}/test`, bodyOf(draft)));
    });
  const submit = (event: Event) => {
    event.preventDefault();
    void run('saving', async () => {
      await props.onSubmit(draft);
      setTried(null);
      if (!props.initial) setDraft(draftOf());
    });
  };
  return (
    <form class="stack-form source-form" onSubmit={submit} aria-label={props.title}>
      <h3 class={props.initial ? 'visually-hidden' : undefined}>{props.title}</h3>
      <TypeUrlName draft={draft} set={set} error={error} id={id} />
      <IntervalField draft={draft} set={set} error={error} id={id} />
      <MappingEditor
        inputs={props.inputs}
        rows={draft.rows}
        onChange={(rows) => set({ rows })}
        error={error}
        idPrefix={id}
        fields={draft.type === 'csv_url' ? CSV_COLUMNS : undefined}
      />
      {draft.type === 'csv_url' && <CsvRowFields draft={draft} set={set} error={error} id={id} />}
      <TableFields draft={draft} set={set} error={error} id={id} inputs={props.inputs} />
      <Problem error={error} />
      <div class="row">
        <button type="button" disabled={busy !== null || draft.url.trim() === ''} onClick={() => void test()}>
          {busy === 'testing' ? 'Testing…' : 'Test'}
        </button>
        <button type="submit" class="primary" disabled={busy !== null}>
          {busy === 'saving' ? 'Saving…' : props.submitLabel}
        </button>
        <span class="hint small">Test fetches once and shows what would be set, changing nothing.</span>
      </div>
      {tried && <DryRunResult result={tried} />}
    </form>
  );
}

interface FieldProps {
  draft: SourceDraft;
  set: (change: Partial<SourceDraft>) => void;
  error: unknown;
  id: string;
}

function TypeUrlName({ draft, set, error, id }: FieldProps) {
  return (
    <>
      <fieldset class="source-choice">
        <legend>Type</legend>
        <label class="check">
          <input
            type="radio"
            name={`${id}-type`}
            checked={draft.type === 'json_url'}
            onChange={() => set({ type: 'json_url' })}
          />
          JSON URL: a feed answering a JSON object
        </label>
        <label class="check">
          <input
            type="radio"
            name={`${id}-type`}
            checked={draft.type === 'csv_url'}
            onChange={() => set({ type: 'csv_url' })}
          />
          CSV URL: a CSV with a header row (a published Google Sheet's link works)
        </label>
      </fieldset>
      <label>
        URL
        <input
          type="url"
          required
          maxLength={2048}
          class="mono"
          value={draft.url}
          placeholder={draft.type === 'csv_url' ? 'https://docs.google.com/spreadsheets/d/e/…/pub?output=csv' : ''}
          onInput={(e) => set({ url: e.currentTarget.value })}
          {...invalid(error, 'url', `${id}-url-error`)}
        />
      </label>
      <FieldErrors error={error} path="url" id={`${id}-url-error`} />
      {draft.type === 'csv_url' && (
        <p class="hint">
          A Google Sheet: File → Share → Publish to web, pick the sheet and "Comma-separated values (.csv)", and paste
          the link it gives. Google republishes a sheet every few minutes, so it is fetched at most every 30 s.
        </p>
      )}
      <label>
        Source name (optional)
        <input
          value={draft.name}
          maxLength={200}
          placeholder="the URL's host"
          onInput={(e) => set({ name: e.currentTarget.value })}
          {...invalid(error, 'name', `${id}-name-error`)}
        />
      </label>
      <FieldErrors error={error} path="name" id={`${id}-name-error`} />
    </>
  );
}

function IntervalField({ draft, set, error, id }: FieldProps) {
  const hint = intervalHint(draft.type, draft.url);
  const what = hint.sheet ? 'a Google Sheet' : draft.type === 'csv_url' ? 'a CSV' : 'a JSON feed';
  const refused = fieldErrors(error, 'intervalMs').length > 0;
  return (
    <>
      <label>
        Fetch every (seconds)
        <input
          type="number"
          min={1}
          max={hint.maxS}
          step="any"
          value={draft.intervalS}
          placeholder={String(hint.defaultS)}
          onInput={(e) => set({ intervalS: e.currentTarget.value })}
          aria-describedby={refused ? `${id}-interval-hint ${id}-interval-error` : `${id}-interval-hint`}
          aria-invalid={refused || undefined}
        />
      </label>
      <p class="hint" id={`${id}-interval-hint`}>
        For {what}: at least {hint.minS} s, at most {hint.maxS / 60} min; empty: {hint.defaultS} s.
      </p>
      <FieldErrors error={error} path="intervalMs" id={`${id}-interval-error`} />
    </>
  );
}

/**
 * A mapping (an incoming hook's, a data source's) as rows of "JSON field → input". A field may be a dotted path
 * into nested objects (`game.home.score`, up to 8 names); the input is one the channel's scenes declare. No rows:
 * each top-level field sets the input of the same name. A CSV source names its columns instead (`fields`).
 */
import { FIELD_PATH_SOURCE } from '@onair/protocol';
import type { ComponentChildren } from 'preact';
import { ApiError } from '../api.js';
import { FieldErrors, invalid } from './field-errors.js';

export interface InputChoice {
  name: string;
  label: string;
  type: string;
}

export interface MappingRow {
  key: number;
  field: string;
  input: string;
}

/** What the mapped fields are called, with an example and how an empty mapping reads them. */
export interface FieldWords {
  label: string;
  placeholder: string;
  hint: ComponentChildren;
}

const JSON_FIELDS: FieldWords = {
  label: 'JSON field',
  placeholder: 'game.home.score',
  hint: (
    <>
      A field may be a dotted path into nested objects, e.g. <code>game.home.score</code>. No rows: every top-level
      field sets the input of the same name (<code>{'{"scoreA": 2}'}</code> sets <code>scoreA</code>).
    </>
  ),
};

let nextKey = 1;

export function toRows(mapping: Record<string, string>): MappingRow[] {
  return Object.entries(mapping).map(([field, input]) => ({ key: nextKey++, field, input }));
}

/** Fields listed twice, which the server would see as one. */
export function duplicateFields(rows: MappingRow[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { field } of rows) (seen.has(field.trim()) ? twice : seen).add(field.trim());
  return twice;
}

export function MappingEditor({
  inputs,
  rows,
  onChange,
  error,
  idPrefix,
  fields = JSON_FIELDS,
}: {
  inputs: InputChoice[];
  rows: MappingRow[];
  onChange: (rows: MappingRow[]) => void;
  error: unknown;
  idPrefix: string;
  fields?: FieldWords;
}) {
  const set = (key: number, change: Partial<MappingRow>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const twice = duplicateFields(rows);
  return (
    <fieldset class="mapping">
      <legend>Mapping: {fields.label} → input</legend>
      <p class="hint">{fields.hint}</p>
      {inputs.length === 0 && (
        <p class="hint">This channel's scenes declare no inputs yet: add a scene first, or keep the mapping empty.</p>
      )}
      {rows.map((row, n) => {
        const errorId = `${idPrefix}-row-${row.key}-error`;
        const messages = [
          ...(twice.has(row.field.trim()) ? ['this field is listed twice'] : []),
          ...rowErrors(error, row.field.trim()),
        ];
        const known = inputs.some((i) => i.name === row.input);
        return (
          <div class="row mapping-row" key={row.key}>
            <label>
              {fields.label} {n + 1}
              <input
                value={row.field}
                required
                pattern={FIELD_PATH_SOURCE}
                title="A field name, or a dotted path of up to 8 names (letters, digits, _ and -)"
                placeholder={fields.placeholder}
                onInput={(e) => set(row.key, { field: e.currentTarget.value })}
                {...invalid(error, '', errorId, messages)}
              />
            </label>
            <span aria-hidden="true">→</span>
            <label>
              Input for field {n + 1}
              <select value={row.input} onChange={(e) => set(row.key, { input: e.currentTarget.value })}>
                {!known && <option value={row.input}>{row.input} (no scene declares it)</option>}
                {inputs.map((i) => (
                  <option key={i.name} value={i.name}>
                    {i.label} ({i.name}, {i.type})
                  </option>
                ))}
              </select>
            </label>
            <button type="button" class="quiet" onClick={() => onChange(rows.filter((r) => r.key !== row.key))}>
              Remove field {n + 1}
            </button>
            <FieldErrors error={error} path="" id={errorId} messages={messages} />
          </div>
        );
      })}
      <div>
        <button
          type="button"
          disabled={inputs.length === 0}
          onClick={() => onChange([...rows, { key: nextKey++, field: '', input: inputs[0]?.name ?? '' }])}
        >
          Add a field
        </button>
      </div>
      <FieldErrors
        error={error}
        path="mapping"
        id={`${idPrefix}-mapping-error`}
        messages={
          error instanceof ApiError ? error.errors.filter((e) => e.path === 'mapping').map((e) => e.message) : []
        }
      />
    </fieldset>
  );
}

/** What the server said about one field of the mapping (`errors[].path` is `mapping.<field>`). */
function rowErrors(error: unknown, field: string): string[] {
  if (!(error instanceof ApiError) || field === '') return [];
  return error.errors.filter((e) => e.path === `mapping.${field}`).map((e) => e.message);
}

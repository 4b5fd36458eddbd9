/**
 * A data source's choice of what it reads besides single fields: for CSV the row that maps (by number, by a
 * column's value, or the cursor an operator steps in the live view), and for both types a whole table into a
 * `list` input. Server errors (`row…`, `table…`) are shown at these fields.
 */
import { describedBy, FieldErrors, invalid } from './field-errors.js';
import type { InputChoice } from './mapping-editor.js';
import type { RowChoice, SourceDraft } from './source-draft.js';

interface Props {
  draft: SourceDraft;
  set: (change: Partial<SourceDraft>) => void;
  error: unknown;
  id: string;
}

const ROW_CHOICES: [RowChoice, string][] = [
  ['number', 'By number'],
  ['match', "By a column's value"],
  ['cursor', 'By cursor (stepped with First, Previous and Next in the live view)'],
  ['none', 'No single row: the table only'],
];

export function CsvRowFields({ draft, set, error, id }: Props) {
  return (
    <fieldset class="source-choice" {...describedBy(error, 'row', `${id}-row-error`)}>
      <legend>Which row maps</legend>
      {ROW_CHOICES.map(([value, label]) => (
        <label class="check" key={value}>
          <input
            type="radio"
            name={`${id}-row-by`}
            value={value}
            checked={draft.rowBy === value}
            onChange={() => set({ rowBy: value })}
          />
          {label}
        </label>
      ))}
      {draft.rowBy === 'number' && (
        <label>
          Row number (1: the first row after the header)
          <input
            type="number"
            min={1}
            step={1}
            required
            value={draft.rowNumber}
            onInput={(e) => set({ rowNumber: e.currentTarget.value })}
            {...invalid(error, 'row.number', `${id}-row-error`)}
          />
        </label>
      )}
      {draft.rowBy === 'match' && (
        <div class="row">
          <label>
            Column
            <input
              required
              maxLength={200}
              placeholder="Game"
              value={draft.matchColumn}
              onInput={(e) => set({ matchColumn: e.currentTarget.value })}
              {...invalid(error, 'row.column', `${id}-row-error`)}
            />
          </label>
          <label>
            Value
            <input
              maxLength={1000}
              placeholder="Final"
              value={draft.matchValue}
              onInput={(e) => set({ matchValue: e.currentTarget.value })}
            />
          </label>
        </div>
      )}
      <FieldErrors error={error} path="row" id={`${id}-row-error`} />
    </fieldset>
  );
}

/** Every row (CSV) or every element of an array (JSON) into a `list` input; nothing while the channel has none. */
export function TableFields({ draft, set, error, id, inputs }: Props & { inputs: InputChoice[] }) {
  const lists = inputs.filter((i) => i.type === 'list');
  const known = draft.tableInput === '' || lists.some((i) => i.name === draft.tableInput);
  const what = draft.type === 'csv_url' ? 'Every row' : 'Every element of an array';
  if (lists.length === 0 && draft.tableInput === '') return null;
  return (
    <fieldset class="source-choice">
      <legend>Whole table into a list</legend>
      <label>
        {what} into the list input
        <select
          value={draft.tableInput}
          onChange={(e) => set({ tableInput: e.currentTarget.value })}
          {...invalid(error, 'table.input', `${id}-table-error`)}
        >
          <option value="">None</option>
          {!known && <option value={draft.tableInput}>{draft.tableInput} (not a list any scene declares)</option>}
          {lists.map((i) => (
            <option key={i.name} value={i.name}>
              {i.label} ({i.name})
            </option>
          ))}
        </select>
      </label>
      <FieldErrors error={error} path="table.input" id={`${id}-table-error`} />
      {draft.type === 'json_url' && draft.tableInput !== '' && (
        <>
          <label>
            Path of the array (empty: the answer is the array)
            <input
              value={draft.tablePath}
              placeholder="data.standings"
              onInput={(e) => set({ tablePath: e.currentTarget.value })}
              {...invalid(error, 'table.path', `${id}-table-path-error`)}
            />
          </label>
          <FieldErrors error={error} path="table.path" id={`${id}-table-path-error`} />
        </>
      )}
    </fieldset>
  );
}

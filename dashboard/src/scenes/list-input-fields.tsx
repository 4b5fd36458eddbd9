/**
 * A list input's own fields in the editor (docs/scenes.md, "Lists"): the most rows its value may hold, its columns
 * (each a name and a type, in the order a table shows them), and its default rows, typed as JSON as the live panel
 * takes them.
 */
import { useEffect, useState } from 'preact/hooks';
import { LIST_COLUMN_TYPES } from '@onair/protocol';
import type { FieldError } from '../api.js';
import { freeName, isObj, listOf, withKey, type Obj } from './draft.js';
import { Field, NumberField, SelectField, TextField } from './fields.js';
import { SubItem, SubList, subListEdit } from './sub-list.js';

interface ListInputProps {
  item: Obj;
  /** The input's path, `definition.inputs.2`. */
  path: string;
  errors: readonly FieldError[];
  onChange: (item: Obj) => void;
}

const COLUMN_FIELDS = ['name', 'type'];

/** A new column: text, named after the ones there. */
export function newColumn(columns: readonly unknown[]): Obj {
  return { name: freeName('column', columns), type: 'text' };
}

export function ListInputFields({ item, path, errors, onChange }: ListInputProps) {
  const columns = listOf(item, 'columns');
  const edit = subListEdit(columns, (next) => onChange(withKey(item, 'columns', next)));
  const listPath = `${path}.columns`;
  return (
    <>
      <NumberField
        errors={errors}
        label="Most rows"
        path={`${path}.maxRows`}
        value={item.maxRows}
        step={1}
        hint="The most rows its value may hold, 1–100. Empty: 20."
        onChange={(n) => onChange(withKey(item, 'maxRows', n))}
      />
      <SubList
        title="Columns"
        path={listPath}
        hint="Each row's cells, in order: a rows element's children show a cell as {name}."
        errors={errors}
        count={columns.length}
        empty="No columns: a list needs at least one."
        add={
          <button type="button" onClick={() => edit.add(newColumn(columns))}>
            Add column
          </button>
        }
      >
        {columns.map((column, k) => {
          const c: Obj = isObj(column) ? column : {};
          const at = `${listPath}.${k}`;
          return (
            <SubItem
              key={k}
              title={`Column ${k + 1}`}
              name={c.name}
              path={at}
              index={k}
              count={columns.length}
              errors={errors}
              shown={COLUMN_FIELDS}
              onMove={(delta) => edit.move(k, delta)}
              onRemove={() => edit.remove(k)}
            >
              <ColumnFields column={c} path={at} errors={errors} onChange={(next) => edit.replace(k, next)} />
            </SubItem>
          );
        })}
      </SubList>
      <RowsDefaultField
        path={`${path}.default`}
        value={item.default}
        errors={errors}
        onChange={(rows) => onChange(withKey(item, 'default', rows))}
      />
    </>
  );
}

function ColumnFields({
  column,
  path,
  errors,
  onChange,
}: {
  column: Obj;
  path: string;
  errors: readonly FieldError[];
  onChange: (column: Obj) => void;
}) {
  const set = (key: string) => (value: unknown) => onChange(withKey(column, key, value));
  return (
    <>
      <TextField errors={errors} label="Name" path={`${path}.name`} value={column.name} onChange={set('name')} />
      <SelectField
        errors={errors}
        label="Type"
        path={`${path}.type`}
        value={column.type}
        options={LIST_COLUMN_TYPES}
        onChange={set('type')}
      />
    </>
  );
}

/** Rows as the field shows them: a JSON array, one row a line. */
export function rowsText(value: unknown): string {
  if (value === undefined) return '';
  if (!Array.isArray(value)) return JSON.stringify(value);
  if (value.length === 0) return '[]';
  return `[\n${value.map((row) => `  ${JSON.stringify(row)}`).join(',\n')}\n]`;
}

/** The draft value for what is typed: left out (empty), what the JSON says, or the text for the server to refuse. */
export function rowsValue(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A list's default rows, as JSON. The text typed is kept while it means the draft's value. */
export function RowsDefaultField({
  value,
  path,
  errors,
  onChange,
}: {
  value: unknown;
  path: string;
  errors: readonly FieldError[];
  onChange: (value: unknown) => void;
}) {
  const [text, setText] = useState(() => rowsText(value));
  // Undo or the JSON view can change the rows under the field: show the new ones, from this render on.
  const typed = JSON.stringify(rowsValue(text)) === JSON.stringify(value);
  useEffect(() => {
    if (!typed) setText(rowsText(value));
  }, [value]);
  return (
    <div class="wide">
      <Field
        label="Default rows (JSON)"
        path={path}
        errors={errors}
        hint='The rows shown until the list is set, one object a row naming its cells: [{"team": "Lions", "pts": 42}]. Empty: no rows.'
        control={(a11y) => (
          <textarea
            {...a11y}
            rows={4}
            spellcheck={false}
            value={typed ? text : rowsText(value)}
            onInput={(e) => {
              setText(e.currentTarget.value);
              onChange(rowsValue(e.currentTarget.value));
            }}
          />
        )}
      />
    </div>
  );
}

/**
 * A select input's options in the editor: one a line. What is typed is kept while it means the draft's options, so
 * the empty line Enter starts is not taken away under the cursor; empty lines are left out of the options.
 */
import { useEffect, useState } from 'preact/hooks';
import type { FieldError } from '../api.js';
import { Field } from './fields.js';

/** The options for what is typed: each non-empty line, as written. */
export function optionLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

const sameList = (a: readonly unknown[], b: unknown): boolean =>
  Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);

export function OptionsField({
  value,
  path,
  errors,
  onChange,
}: {
  value: unknown;
  path: string;
  errors: readonly FieldError[];
  onChange: (options: string[]) => void;
}) {
  const textOf = (v: unknown) => (Array.isArray(v) ? v.map(String).join('\n') : '');
  const [text, setText] = useState(() => textOf(value));
  // Undo or the JSON view can change the options under the field: show the new ones.
  useEffect(() => {
    if (!sameList(optionLines(text), value)) setText(textOf(value));
  }, [value]);
  return (
    <Field
      label="Options (one a line)"
      path={path}
      errors={errors}
      hint="The values it may take, in the order the live panel lists them."
      control={(a11y) => (
        <textarea
          {...a11y}
          rows={4}
          value={text}
          onInput={(e) => {
            setText(e.currentTarget.value);
            onChange(optionLines(e.currentTarget.value));
          }}
        />
      )}
    />
  );
}

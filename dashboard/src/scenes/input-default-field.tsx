/**
 * An input's default in the editor, in the control its type needs: a clock time, a number, one of a select's
 * options, true or false, or text. Empty leaves it out (the type's default). A list's default rows are drawn with
 * its columns (list-input-fields.tsx).
 */
import type { FieldError } from '../api.js';
import type { Obj } from './draft.js';
import { ClockTimeField } from './clock-fields.js';
import { NumberField, SelectField, TextField } from './fields.js';

export function DefaultField({
  item,
  path,
  errors,
  onChange,
}: {
  item: Obj;
  path: string;
  errors: readonly FieldError[];
  onChange: (value: unknown) => void;
}) {
  const value = item.default;
  switch (item.type) {
    case 'clock':
      return (
        <ClockTimeField
          label="Default (m:ss)"
          path={path}
          value={value}
          errors={errors}
          hint="The time it shows until it is driven, and goes back to on reset. Empty: 0:00."
          onChange={onChange}
        />
      );
    case 'number':
      return <NumberField errors={errors} label="Default" path={path} value={value} onChange={onChange} />;
    case 'select': {
      const options = Array.isArray(item.options) ? item.options.filter((o) => typeof o === 'string') : [];
      return (
        <SelectField
          errors={errors}
          label="Default"
          path={path}
          value={value}
          options={options}
          none="the first option (default)"
          onChange={onChange}
        />
      );
    }
    case 'boolean':
      return (
        <SelectField
          errors={errors}
          label="Default"
          path={path}
          value={typeof value === 'boolean' ? String(value) : value}
          options={['true', 'false']}
          none="false (default)"
          onChange={(v) => onChange(v === undefined ? undefined : v === 'true')}
        />
      );
    default:
      return (
        <TextField
          errors={errors}
          label="Default"
          path={path}
          value={value}
          optional={item.type !== 'text'}
          onChange={onChange}
        />
      );
  }
}

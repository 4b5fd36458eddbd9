/**
 * The editor's form controls: each is labelled, named by the definition path it edits, and shows the server's
 * errors for that path right under it (linked with aria-describedby, marked aria-invalid).
 */
import type { ComponentChildren } from 'preact';
import type { FieldError } from '../api.js';
import { errorsAt, fieldId } from './path-errors.js';

export interface FieldProps {
  label: string;
  /** The path the server's errors name, `definition.elements.2.fontSize`. */
  path: string;
  errors: readonly FieldError[];
  hint?: string;
}

/** The label, the control, and the errors for its path. */
export function Field({
  label,
  path,
  errors,
  hint,
  control,
}: FieldProps & { control: (a11y: A11y) => ComponentChildren }) {
  const id = fieldId(path);
  const messages = errorsAt(errors, path);
  const describedBy = [messages.length > 0 ? `${id}-errors` : '', hint ? `${id}-hint` : ''].filter(Boolean);
  return (
    <div class={messages.length > 0 ? 'field invalid' : 'field'} data-path={path}>
      <label for={id}>{label}</label>
      {control({
        id,
        'aria-invalid': messages.length > 0 ? 'true' : undefined,
        'aria-describedby': describedBy.length > 0 ? describedBy.join(' ') : undefined,
      })}
      {hint && (
        <span class="hint small" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {messages.length > 0 && (
        <ul class="field-errors" id={`${id}-errors`}>
          {messages.map((m, i) => (
            <li key={i} class="field-error">
              {m}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface A11y {
  id: string;
  'aria-invalid': 'true' | undefined;
  'aria-describedby': string | undefined;
}

/** A text field; an empty optional field is left out (`undefined`), so the format's default applies. */
export function TextField(
  props: FieldProps & { value: unknown; onChange: (value: string | undefined) => void; optional?: boolean },
) {
  const { value, onChange, optional } = props;
  return (
    <Field
      {...props}
      control={(a11y) => (
        <input
          {...a11y}
          type="text"
          value={typeof value === 'string' ? value : ''}
          onInput={(e) => {
            const text = e.currentTarget.value;
            onChange(optional && text === '' ? undefined : text);
          }}
        />
      )}
    />
  );
}

/** A number field; empty (or not a number yet) is `undefined`: left out, or reported missing by the server. */
export function NumberField(
  props: FieldProps & { value: unknown; onChange: (value: number | undefined) => void; step?: number },
) {
  const { value, onChange, step } = props;
  return (
    <Field
      {...props}
      control={(a11y) => (
        <input
          {...a11y}
          type="number"
          step={step ?? 'any'}
          value={typeof value === 'number' ? String(value) : ''}
          onInput={(e) => {
            const n = e.currentTarget.valueAsNumber;
            onChange(Number.isNaN(n) ? undefined : n);
          }}
        />
      )}
    />
  );
}

/** A choice; `none` is the option for "left out" (the format's default). A value not among the options is kept. */
export function SelectField(
  props: FieldProps & {
    value: unknown;
    options: readonly string[];
    none?: string;
    onChange: (value: string | undefined) => void;
  },
) {
  const { value, options, none, onChange } = props;
  const current = typeof value === 'string' ? value : '';
  const extra = current !== '' && !options.includes(current) ? [current] : [];
  return (
    <Field
      {...props}
      control={(a11y) => (
        <select
          {...a11y}
          value={current}
          onChange={(e) => onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value)}
        >
          {(none !== undefined || current === '') && <option value="">{none ?? '—'}</option>}
          {[...options, ...extra].map((o) => (
            <option key={o} value={o}>
              {extra.includes(o) ? `${o} (not known)` : o}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** Errors that no field of a card shows, listed in the card with their paths. */
export function OtherErrors({ errors, where }: { errors: readonly FieldError[]; where: string }) {
  if (errors.length === 0) return null;
  return (
    <ul class="field-errors other-errors" aria-label={`Other problems in ${where}`}>
      {errors.map((e, i) => (
        <li key={i} class="field-error">
          {e.path && <code>{e.path}</code>}
          {e.path && ': '}
          {e.message}
        </li>
      ))}
    </ul>
  );
}

/** A colour: typed (`#rrggbb`, `#rgba`, `{input}`), or picked. Empty is left out. */
export function ColorField(props: FieldProps & { value: unknown; onChange: (value: string | undefined) => void }) {
  const { value, onChange, label } = props;
  const hex = typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value) ? value : '#000000';
  return (
    <Field
      {...props}
      control={(a11y) => (
        <span class="color-row">
          <input
            {...a11y}
            type="text"
            value={typeof value === 'string' ? value : ''}
            onInput={(e) => onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value)}
          />
          <input
            type="color"
            aria-label={`Pick ${label.toLowerCase()}`}
            value={hex}
            onInput={(e) => onChange(e.currentTarget.value)}
          />
        </span>
      )}
    />
  );
}

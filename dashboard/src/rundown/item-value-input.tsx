import type { InputDef, InputValue } from '@onair/protocol';
import { AssetValue } from '../assets/asset-value.js';

/**
 * One item value, by its input's type: text and image URL fields, a number field, a checkbox, a colour picker, a
 * dropdown of a select's options (first entry: no value of its own), a picker of the library's images for an asset.
 * Empty text is an empty text; an empty image URL or number is "no value of its own" (the scene's default).
 */
export function ItemValueInput({
  def,
  value,
  fallback,
  id,
  readOnly,
  onChange,
}: {
  def: InputDef;
  /** The item's own value, or undefined when it has none. */
  value: InputValue | undefined;
  /** What is drawn when the item has no value of its own. */
  fallback: InputValue;
  id: string;
  readOnly: boolean;
  onChange: (value: InputValue) => void;
}) {
  if (def.type === 'boolean')
    return (
      <label class="check control" data-value={def.name}>
        <input
          type="checkbox"
          checked={(value ?? fallback) === true}
          disabled={readOnly}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
        {def.label}
      </label>
    );
  if (def.type === 'asset')
    return (
      <div data-value={def.name}>
        <AssetValue label={def.label} value={value} fallback={fallback} readOnly={readOnly} onChange={onChange} />
      </div>
    );
  const shown = value === undefined ? '' : asText(value);
  if (def.type === 'select')
    return (
      <label class="control" data-value={def.name}>
        {def.label}
        <select
          id={id}
          value={shown}
          disabled={readOnly}
          onChange={(e) => onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)}
        >
          <option value="">{`— (${fallback === null ? 'none' : asText(fallback)})`}</option>
          {(def.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
    );
  if (def.type === 'color')
    return (
      <label class="control" data-value={def.name}>
        {def.label}
        <input
          id={id}
          type="color"
          value={/^#[0-9a-f]{6}$/i.test(shown) ? shown : typeof fallback === 'string' ? fallback : '#000000'}
          disabled={readOnly}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      </label>
    );
  return (
    <label class="control" data-value={def.name}>
      {def.label}
      {def.type === 'image' ? ' (image URL)' : def.type === 'list' ? ' (rows as JSON)' : ''}
      <input
        id={id}
        type="text"
        inputMode={def.type === 'number' ? 'decimal' : def.type === 'image' ? 'url' : 'text'}
        value={shown}
        placeholder={asText(fallback)}
        readOnly={readOnly}
        // A number is read once typed (on change), so "1." is not cut back to "1" under the cursor.
        onInput={def.type === 'number' ? undefined : (e) => onChange(parsed(def, e.currentTarget.value))}
        onChange={def.type === 'number' ? (e) => onChange(parsed(def, e.currentTarget.value)) : undefined}
      />
    </label>
  );
}

function parsed(def: InputDef, text: string): InputValue {
  if (def.type === 'number') return text.trim() === '' || !Number.isFinite(Number(text)) ? null : Number(text);
  if (def.type === 'image') return text.trim() === '' ? null : text;
  if (def.type === 'list') return listFrom(text);
  return text;
}

/** A list's rows as one line of JSON; JSON that does not parse (yet) stays text, which the server refuses. */
function listFrom(text: string): InputValue {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as InputValue;
  } catch {
    return text;
  }
}

function asText(value: InputValue): string {
  if (value === null) return '';
  return Array.isArray(value) ? JSON.stringify(value) : String(value);
}

import { useState } from 'preact/hooks';
import type { InputDef, InputValue } from '@onair/protocol';
import { AssetPicker } from '../assets/asset-picker.js';
import { AssetValue } from '../assets/asset-value.js';
import type { LiveChannel } from './live-socket.js';

/**
 * Text, image URL, asset (a picker of the library), colour, on/off and select inputs (a dropdown of the options,
 * applied when chosen). Text applies on Enter (Escape puts back what is on air); the field shows what is on air
 * unless the operator is typing. A value is shown as changed only once the server has taken it.
 */
export function ValueField({
  def,
  value,
  live,
  enabled,
}: {
  def: InputDef;
  value: InputValue;
  live: LiveChannel;
  enabled: boolean;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const apply = (next: InputValue) => {
    setSending(true);
    live
      .send(`${def.label}: ${asText(next)}`, { op: 'patch', inputs: { [def.name]: next } })
      .then(() => setDraft(null))
      .catch(() => undefined)
      .finally(() => setSending(false));
  };
  const id = `input-${def.name}`;
  if (def.type === 'boolean')
    return (
      <label class="check control" data-input={def.name}>
        <input
          type="checkbox"
          checked={value === true}
          disabled={!enabled || sending}
          onChange={() => apply(value !== true)}
        />
        {def.label}
      </label>
    );
  if (def.type === 'select')
    return (
      <label class="control" data-input={def.name}>
        {def.label}
        <select
          value={typeof value === 'string' ? value : ''}
          disabled={!enabled || sending}
          onChange={(e) => apply(e.currentTarget.value)}
        >
          {(def.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
    );
  if (def.type === 'asset')
    return (
      <div data-input={def.name}>
        <AssetValue
          label={def.label}
          value={value}
          fallback={def.default}
          disabled={sending}
          readOnly={!enabled}
          onChange={apply}
        />
      </div>
    );
  if (def.type === 'color')
    return (
      <label class="control" data-input={def.name}>
        {def.label}
        <span class="row">
          <input
            type="color"
            value={typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value) ? value : '#000000'}
            disabled={!enabled || sending}
            onChange={(e) => apply(e.currentTarget.value)}
          />
          <code>{asText(value)}</code>
        </span>
      </label>
    );
  const onAir = asText(value);
  const shown = draft ?? onAir;
  const send = (text: string) => apply(fromText(def, text));
  return (
    <div class="control" data-input={def.name}>
      <label for={id}>
        {def.label}
        {def.type === 'image' ? ' (image URL)' : def.type === 'list' ? ' (rows as JSON)' : ''}
      </label>
      <div class="row">
        <input
          id={id}
          class={draft !== null && draft !== onAir ? 'dirty' : ''}
          type="text"
          inputMode={def.type === 'image' ? 'url' : 'text'}
          value={shown}
          readOnly={!enabled}
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setDraft(null);
            if (e.key === 'Enter' && draft !== null) send(draft);
          }}
          aria-describedby={`${id}-hint`}
        />
        {enabled && def.type === 'image' && <AssetPicker disabled={sending} onPick={(asset) => apply(asset.url)} />}
        {enabled && draft !== null && (
          <button type="button" disabled={sending} onClick={() => send(draft)}>
            {sending ? 'Sending…' : 'Apply'}
          </button>
        )}
      </div>
      <span id={`${id}-hint`} class="hint small">
        {enabled ? (draft !== null ? 'Enter to put on air, Esc to undo' : '') : ''}
      </span>
    </div>
  );
}

/** A list's rows are edited as JSON, one line: `[{"team": "Lions", "pts": 42}]`. */
function asText(value: InputValue): string {
  if (value === null) return '';
  return Array.isArray(value) ? JSON.stringify(value) : String(value);
}

/** What the server is sent for the field's text; JSON that does not parse goes as text, which it refuses. */
function fromText(def: InputDef, text: string): InputValue {
  if (text === '' && def.type === 'image') return null;
  if (def.type !== 'list') return text;
  try {
    return JSON.parse(text) as InputValue;
  } catch {
    return text;
  }
}

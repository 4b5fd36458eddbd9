import { useState } from 'preact/hooks';

export interface InputChoice {
  name: string;
  label: string;
  type: string;
}

/**
 * Rows of "JSON field → input". A field may be a dotted path into nested objects (`game.home.score`); the input
 * is one the channel's scenes declare. No rows: each field sets the input of the same name.
 */
export function MappingEditor({
  inputs,
  value,
  onChange,
}: {
  inputs: InputChoice[];
  value: [string, string][];
  onChange: (rows: [string, string][]) => void;
}) {
  const [field, setField] = useState('');
  const [input, setInput] = useState(inputs[0]?.name ?? '');
  const add = () => {
    if (!field.trim() || !input) return;
    onChange([...value.filter(([f]) => f !== field.trim()), [field.trim(), input]]);
    setField('');
  };
  return (
    <fieldset class="mapping">
      <legend>Mapping (none: a field sets the input of the same name)</legend>
      {value.length > 0 && (
        <ul>
          {value.map(([f, i]) => (
            <li key={f}>
              <code>{f}</code> → <code>{i}</code>{' '}
              <button type="button" class="quiet" onClick={() => onChange(value.filter(([x]) => x !== f))}>
                Remove {f}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="row">
        <label>
          JSON field (dotted path allowed)
          <input
            value={field}
            placeholder="game.home.score"
            onInput={(e) => setField(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
        </label>
        <label>
          Sets input
          <select value={input} onChange={(e) => setInput(e.currentTarget.value)}>
            {inputs.map((i) => (
              <option key={i.name} value={i.name}>
                {i.label} ({i.name}, {i.type})
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={add}>
          Add to mapping
        </button>
      </div>
    </fieldset>
  );
}

import { useState } from 'preact/hooks';
import type { InputValue, Rundown } from '@onair/protocol';
import type { ChannelState } from '../../../renderer/src/channel-state.js';
import type { LiveChannel } from '../live/live-socket.js';
import { sortedScenes } from '../live/scene-list.js';
import { itemInputs } from './item-drafts.js';
import { ItemValueInput } from './item-value-input.js';
import { addItem } from './rundown-edits.js';

/**
 * Adds an item at the end of the rundown: a scene, an optional label, and the scene's item values (a field left
 * empty draws the scene's default). Folded away until asked for, so the list keeps the room.
 */
export function AddItemForm({ live, state, rundown }: { live: LiveChannel; state: ChannelState; rundown: Rundown }) {
  const [open, setOpen] = useState(false);
  const scenes = sortedScenes(state);
  const [sceneId, setSceneId] = useState<string>('');
  const [label, setLabel] = useState('');
  const [values, setValues] = useState<Record<string, InputValue>>({});
  const [busy, setBusy] = useState(false);
  if (!open)
    return (
      <p class="add-item-toggle">
        <button type="button" onClick={() => setOpen(true)} disabled={scenes.length === 0}>
          + Add item
        </button>
        {scenes.length === 0 && <span class="hint small"> (the channel has no scene yet)</span>}
      </p>
    );
  const scene = state.scenes[sceneId] ?? scenes[0];
  const inputs = itemInputs(scene);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!scene) return;
    setBusy(true);
    const own = Object.fromEntries(
      inputs.flatMap((def) =>
        values[def.name] === undefined || values[def.name] === null ? [] : [[def.name, values[def.name]!]],
      ),
    );
    const added = await addItem(live, rundown, { sceneId: scene.id, label, values: own }, scene.name);
    setBusy(false);
    if (!added) return;
    setLabel('');
    setValues({});
  };
  return (
    <form class="add-item" aria-label="Add an item" onSubmit={(e) => void submit(e)}>
      <label>
        Scene
        <select
          value={scene?.id ?? ''}
          onChange={(e) => {
            setSceneId(e.currentTarget.value);
            setValues({});
          }}
        >
          {scenes.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Label
        <input value={label} placeholder="optional" onInput={(e) => setLabel(e.currentTarget.value)} />
      </label>
      {inputs.length === 0 && <p class="hint small">This scene has no item inputs: every item of it looks the same.</p>}
      {inputs.map((def) => (
        <ItemValueInput
          key={def.name}
          def={def}
          id={`new-item-${def.name}`}
          value={values[def.name]}
          fallback={def.default}
          readOnly={false}
          onChange={(v) => setValues({ ...values, [def.name]: v })}
        />
      ))}
      <div class="row">
        <button type="submit" class="primary" disabled={busy || !scene}>
          Add to rundown
        </button>
        <button type="button" class="quiet" onClick={() => setOpen(false)}>
          Done
        </button>
      </div>
    </form>
  );
}

/**
 * The scene's triggers (docs/scenes.md, "Triggers"): named animations. The form names them and adds or removes
 * them; the animation, targets, duration and input are edited in the JSON view.
 */
import type { FieldError } from '../api.js';
import { freeName, isObj, listOf, removed, replaced, withKey, type Obj } from './draft.js';
import { OtherErrors, TextField } from './fields.js';
import { fieldId, unshownErrors } from './path-errors.js';

export function TriggersSection({
  definition,
  errors,
  onChange,
}: {
  definition: Obj;
  errors: readonly FieldError[];
  onChange: (definition: Obj) => void;
}) {
  const triggers = listOf(definition, 'triggers');
  const setTriggers = (next: unknown[]) => onChange(withKey(definition, 'triggers', next));
  const listErrors = unshownErrors(
    errors,
    'definition.triggers',
    triggers.map((_, i) => String(i)),
  );
  return (
    <section class="editor-section" aria-labelledby="triggers-title">
      <h2 id="triggers-title">Triggers</h2>
      <p class="hint">
        Animations fired by name or by an input's change. Their animation, targets, duration and input are edited in the
        JSON view; a new one flashes the whole scene.
      </p>
      <OtherErrors where="the triggers" errors={listErrors} />
      {triggers.length === 0 && <p class="empty">No triggers.</p>}
      {triggers.map((trigger, index) => {
        const path = `definition.triggers.${index}`;
        const item: Obj = isObj(trigger) ? trigger : {};
        const title = `Trigger ${index + 1}`;
        const animation = typeof item.animation === 'string' ? item.animation : 'keyframes';
        return (
          <div class="card trigger-row" key={index} id={fieldId(path)} tabIndex={-1} role="group" aria-label={title}>
            <TextField
              errors={errors}
              label={`${title} name`}
              path={`${path}.name`}
              value={item.name}
              hint={`${animation}${typeof item.on === 'string' ? `, on ${item.on}` : ''}`}
              onChange={(name) => setTriggers(replaced(triggers, index, withKey(item, 'name', name)))}
            />
            <OtherErrors where={title} errors={unshownErrors(errors, path, ['name'])} />
            <button type="button" class="danger" onClick={() => setTriggers(removed(triggers, index))}>
              Remove<span class="visually-hidden"> {title}</span>
            </button>
          </div>
        );
      })}
      <button
        type="button"
        onClick={() => setTriggers([...triggers, { name: freeName('trigger', triggers), animation: 'flash' }])}
      >
        Add trigger
      </button>
    </section>
  );
}

/**
 * The scene's triggers (docs/scenes.md, "Triggers"): named animations. The form names them and adds or removes
 * them; the animation, targets, duration and input are edited in the JSON view.
 */
import type { FieldError } from '../api.js';
import { freeName, isObj, withKey, type Obj } from './draft.js';
import { OtherErrors, TextField } from './fields.js';
import { ItemActions, ListSection, listEdit } from './list-section.js';
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
  const triggers = listEdit(definition, 'triggers', onChange);
  return (
    <ListSection
      name="triggers"
      title="Triggers"
      hint="Animations fired by name or by an input's change. Their animation, targets, duration and input are edited in the JSON view; a new one flashes the whole scene."
      errors={errors}
      keys={triggers.keys}
      empty="No triggers."
      add={
        <button
          type="button"
          onClick={() => triggers.add({ name: freeName('trigger', triggers.items), animation: 'flash' })}
        >
          Add trigger
        </button>
      }
    >
      {triggers.items.map((trigger, index) => {
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
              onChange={(name) => triggers.replace(index, withKey(item, 'name', name))}
            />
            <OtherErrors where={title} errors={unshownErrors(errors, path, ['name'])} />
            <ItemActions
              title={title}
              index={index}
              count={triggers.items.length}
              onRemove={() => triggers.remove(index)}
            />
          </div>
        );
      })}
    </ListSection>
  );
}

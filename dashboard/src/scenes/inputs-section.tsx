/**
 * The scene's inputs (docs/scenes.md, "Inputs"): name, type, label, default, scope; a clock's direction and its stop
 * or periods, a select's options, a list's columns and most rows.
 */
import { INPUT_SCOPES, INPUT_TYPES } from '@onair/protocol';
import type { FieldError } from '../api.js';
import { convertInput, freeName, isObj, withKey, type Obj } from './draft.js';
import { ClockInputFields, drawsStopAt } from './clock-input-fields.js';
import { OtherErrors, SelectField, TextField } from './fields.js';
import { DefaultField } from './input-default-field.js';
import { ListInputFields } from './list-input-fields.js';
import { OptionsField } from './options-field.js';
import { ItemActions, ListSection, listEdit } from './list-section.js';
import { fieldId, unshownErrors } from './path-errors.js';

/**
 * The keys the card's fields show errors for; an error at any other (a key its type does not draw, such as a
 * scope on a clock or options on a text) is listed in the card.
 */
export function shownKeys(item: Obj): string[] {
  const shown = ['name', 'type', 'label', 'default'];
  if (item.type !== 'clock') shown.push('scope');
  if (item.type === 'clock') shown.push('direction', 'periods', ...(drawsStopAt(item) ? ['stopAt'] : []));
  if (item.type === 'select') shown.push('options');
  if (item.type === 'list') shown.push('columns', 'maxRows');
  return shown;
}

export function InputsSection({
  definition,
  errors,
  onChange,
}: {
  definition: Obj;
  errors: readonly FieldError[];
  onChange: (definition: Obj) => void;
}) {
  const inputs = listEdit(definition, 'inputs', onChange);
  return (
    <ListSection
      name="inputs"
      title="Inputs"
      hint="The values the scene shows. A channel input (scores, clocks) is shared by every scene of the channel that declares the same name; an item input (a name, a title) belongs to each graphic as it is cued, from its rundown item."
      errors={errors}
      keys={inputs.keys}
      empty="No inputs."
      add={
        <button
          type="button"
          onClick={() => inputs.add({ name: freeName('input', inputs.items), type: 'text', default: '' })}
        >
          Add input
        </button>
      }
    >
      {inputs.items.map((input, index) => {
        const path = `definition.inputs.${index}`;
        const item: Obj = isObj(input) ? input : {};
        const title = `Input ${index + 1}`;
        const set = (key: string) => (value: unknown) => inputs.replace(index, withKey(item, key, value));
        return (
          <fieldset class="card" key={index} id={fieldId(path)} tabIndex={-1}>
            <legend>
              {title}
              {typeof item.name === 'string' && item.name ? ` · ${item.name}` : ''}
            </legend>
            <ItemActions
              title={title}
              index={index}
              count={inputs.items.length}
              onRemove={() => inputs.remove(index)}
            />
            <OtherErrors where={title} errors={unshownErrors(errors, path, shownKeys(item))} />
            <div class="field-grid">
              <TextField errors={errors} label="Name" path={`${path}.name`} value={item.name} onChange={set('name')} />
              <SelectField
                errors={errors}
                label="Type"
                path={`${path}.type`}
                value={item.type}
                options={INPUT_TYPES}
                onChange={(t) => inputs.replace(index, convertInput(item, t ?? 'text'))}
              />
              <TextField
                errors={errors}
                label="Label"
                path={`${path}.label`}
                value={item.label}
                optional
                onChange={set('label')}
              />
              {item.type !== 'list' && (
                <DefaultField item={item} path={`${path}.default`} errors={errors} onChange={set('default')} />
              )}
              {item.type !== 'clock' && (
                <SelectField
                  errors={errors}
                  label="Scope"
                  path={`${path}.scope`}
                  value={item.scope}
                  options={INPUT_SCOPES}
                  none="channel (default)"
                  onChange={set('scope')}
                />
              )}
              {item.type === 'clock' && (
                <ClockInputFields
                  item={item}
                  path={path}
                  errors={errors}
                  onChange={(next) => inputs.replace(index, next)}
                />
              )}
              {item.type === 'select' && (
                <OptionsField errors={errors} path={`${path}.options`} value={item.options} onChange={set('options')} />
              )}
              {item.type === 'list' && (
                <ListInputFields
                  item={item}
                  path={path}
                  errors={errors}
                  onChange={(next) => inputs.replace(index, next)}
                />
              )}
            </div>
          </fieldset>
        );
      })}
    </ListSection>
  );
}

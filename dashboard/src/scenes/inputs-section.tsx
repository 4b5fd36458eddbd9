/** The scene's inputs (docs/scenes.md, "Inputs"): name, type, label, default, scope; a clock's direction and stop, a select's options. */
import { CLOCK_DIRECTIONS, INPUT_SCOPES, INPUT_TYPES } from '@onair/protocol';
import type { FieldError } from '../api.js';
import { convertInput, freeName, isObj, withKey, type Obj } from './draft.js';
import { StopAtField } from './clock-fields.js';
import { NumberField, OtherErrors, SelectField, TextField } from './fields.js';
import { OptionsField } from './options-field.js';
import { ItemActions, ListSection, listEdit } from './list-section.js';
import { fieldId, unshownErrors } from './path-errors.js';

const SHOWN = ['name', 'type', 'label', 'default', 'direction', 'scope', 'stopAt', 'options'];

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
            <OtherErrors where={title} errors={unshownErrors(errors, path, SHOWN)} />
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
              <DefaultField item={item} path={`${path}.default`} errors={errors} onChange={set('default')} />
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
                <SelectField
                  errors={errors}
                  label="Direction"
                  path={`${path}.direction`}
                  value={item.direction}
                  options={CLOCK_DIRECTIONS}
                  none="up (default)"
                  onChange={set('direction')}
                />
              )}
              {item.type === 'select' && (
                <OptionsField errors={errors} path={`${path}.options`} value={item.options} onChange={set('options')} />
              )}
              {item.type === 'clock' && Array.isArray(item.periods) && <PeriodsNote periods={item.periods} />}
              {item.type === 'clock' && !Array.isArray(item.periods) && (
                <StopAtField
                  errors={errors}
                  path={`${path}.stopAt`}
                  value={item.stopAt}
                  direction={item.direction}
                  onChange={set('stopAt')}
                />
              )}
            </div>
          </fieldset>
        );
      })}
    </ListSection>
  );
}

/** The default, in the control its type needs; empty leaves it out (the type's default). */
function DefaultField({
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
  if (item.type === 'number' || item.type === 'clock') {
    const label = item.type === 'clock' ? 'Default (ms)' : 'Default';
    return <NumberField errors={errors} label={label} path={path} value={value} onChange={onChange} />;
  }
  if (item.type === 'select') {
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
  if (item.type === 'boolean') {
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
  }
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

/** A clock's periods, listed; they are edited in the JSON view (each stops the clock instead of Stop at). */
function PeriodsNote({ periods }: { periods: unknown[] }) {
  const names = periods.map((p) => (isObj(p) && typeof p.name === 'string' ? p.name : '?'));
  return (
    <p class="hint small">
      Periods: {names.join(', ')}. The clock stops at each period's stop; edit them in the JSON view.
    </p>
  );
}

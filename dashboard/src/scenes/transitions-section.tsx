/** How the scene enters and leaves the air (docs/scenes.md, "Transitions"): type, duration, easing, edge. */
import { EASINGS, EDGES } from '@onair/protocol';
import type { FieldError } from '../api.js';
import { convertTransition, isObj, withKey, type Obj } from './draft.js';
import { NumberField, OtherErrors, SelectField } from './fields.js';
import { ListSection } from './list-section.js';
import { fieldId, unshownErrors } from './path-errors.js';

const TYPES = ['cut', 'fade', 'slide', 'wipe'];
const SHOWN = ['type', 'durationMs', 'easing', 'from'];
const WAYS = ['in', 'out'] as const;

export function TransitionsSection({
  definition,
  errors,
  onChange,
}: {
  definition: Obj;
  errors: readonly FieldError[];
  onChange: (definition: Obj) => void;
}) {
  const transitions: Obj = isObj(definition.transitions) ? definition.transitions : {};
  const setWay = (way: 'in' | 'out', t: Obj) =>
    onChange(withKey(definition, 'transitions', withKey(transitions, way, t)));
  return (
    <ListSection name="transitions" title="Transitions" errors={errors} keys={WAYS}>
      <div class="field-grid two">
        {WAYS.map((way) => {
          const path = `definition.transitions.${way}`;
          const t: Obj = isObj(transitions[way]) ? transitions[way] : { type: 'cut' };
          const title = way === 'in' ? 'In (entering the air)' : 'Out (leaving the air)';
          const set = (key: string) => (value: unknown) => setWay(way, withKey(t, key, value));
          const type = typeof t.type === 'string' ? t.type : 'cut';
          return (
            <fieldset class="card" key={way} id={fieldId(path)} tabIndex={-1}>
              <legend>{title}</legend>
              <OtherErrors where={title} errors={unshownErrors(errors, path, SHOWN)} />
              <div class="field-grid">
                <SelectField
                  errors={errors}
                  label="Type"
                  path={`${path}.type`}
                  value={t.type}
                  options={TYPES}
                  onChange={(v) => setWay(way, convertTransition(t, v ?? 'cut'))}
                />
                {type !== 'cut' && (
                  <>
                    <NumberField
                      errors={errors}
                      label="Duration (ms)"
                      path={`${path}.durationMs`}
                      value={t.durationMs}
                      step={50}
                      onChange={set('durationMs')}
                    />
                    <SelectField
                      errors={errors}
                      label="Easing"
                      path={`${path}.easing`}
                      value={t.easing}
                      options={EASINGS}
                      none={`${way === 'in' ? 'ease-out' : 'ease-in'} (default)`}
                      onChange={set('easing')}
                    />
                  </>
                )}
                {(type === 'slide' || type === 'wipe') && (
                  <SelectField
                    errors={errors}
                    label="Edge"
                    path={`${path}.from`}
                    value={t.from}
                    options={EDGES}
                    none="left (default)"
                    onChange={set('from')}
                  />
                )}
              </div>
            </fieldset>
          );
        })}
      </div>
    </ListSection>
  );
}

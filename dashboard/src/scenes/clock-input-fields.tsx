/**
 * A clock input's own fields in the editor (docs/scenes.md, "Clocks" and "Periods"): its direction, and either its
 * Stop at or its periods, each with a name, a start and a stop typed as clock times. A clock with periods has no
 * Stop at (the server refuses one): adding the first period moves the stop into it, and removing the last brings
 * Stop at back.
 */
import { CLOCK_DIRECTIONS } from '@onair/protocol';
import type { FieldError } from '../api.js';
import { isObj, listOf, withKey, type Obj } from './draft.js';
import { ClockTimeField, StopAtField } from './clock-fields.js';
import { SelectField, TextField } from './fields.js';
import { SubItem, SubList, subListEdit } from './sub-list.js';

interface ClockInputProps {
  item: Obj;
  /** The input's path, `definition.inputs.2`. */
  path: string;
  errors: readonly FieldError[];
  onChange: (item: Obj) => void;
}

/** Whether the card draws a Stop at field: without periods, or with one the server refuses (so its error shows). */
export function drawsStopAt(item: Obj): boolean {
  return !Array.isArray(item.periods) || item.stopAt !== undefined;
}

export function ClockInputFields({ item, path, errors, onChange }: ClockInputProps) {
  const set = (key: string) => (value: unknown) => onChange(withKey(item, key, value));
  return (
    <>
      <SelectField
        errors={errors}
        label="Direction"
        path={`${path}.direction`}
        value={item.direction}
        options={CLOCK_DIRECTIONS}
        none="up (default)"
        onChange={set('direction')}
      />
      {drawsStopAt(item) && (
        <StopAtField
          errors={errors}
          path={`${path}.stopAt`}
          value={item.stopAt}
          direction={item.direction}
          onChange={set('stopAt')}
        />
      )}
      <PeriodsField item={item} path={path} errors={errors} onChange={onChange} />
    </>
  );
}

/** The clock with a first period, which takes over its Stop at. */
export function withFirstPeriod(item: Obj): Obj {
  const period: Obj = { name: 'Period 1' };
  if (item.stopAt !== undefined) period.stopAt = item.stopAt;
  return withKey(withKey(item, 'stopAt', undefined), 'periods', [period]);
}

const PERIOD_FIELDS = ['name', 'startAt', 'stopAt'];

function PeriodsField({ item, path, errors, onChange }: ClockInputProps) {
  const periods = listOf(item, 'periods');
  // No periods at all, rather than an empty list (which the format refuses): the clock's Stop at applies again.
  const edit = subListEdit(periods, (next) => onChange(withKey(item, 'periods', next.length > 0 ? next : undefined)));
  const listPath = `${path}.periods`;
  return (
    <SubList
      title="Periods"
      path={listPath}
      hint="The parts of a game (halves, quarters), in order: the clock stops at each period's stop instead of a Stop at, and the live panel moves it to the next."
      errors={errors}
      count={periods.length}
      empty="No periods: the clock stops at its Stop at."
      add={
        <button
          type="button"
          onClick={() =>
            periods.length === 0 ? onChange(withFirstPeriod(item)) : edit.add({ name: `Period ${periods.length + 1}` })
          }
        >
          Add period
        </button>
      }
    >
      {periods.map((period, k) => {
        const p: Obj = isObj(period) ? period : {};
        return (
          <SubItem
            key={k}
            title={`Period ${k + 1}`}
            name={p.name}
            path={`${listPath}.${k}`}
            index={k}
            count={periods.length}
            errors={errors}
            shown={PERIOD_FIELDS}
            onMove={(delta) => edit.move(k, delta)}
            onRemove={() => edit.remove(k)}
          >
            <PeriodFields
              period={p}
              path={`${listPath}.${k}`}
              first={k === 0}
              down={item.direction === 'down'}
              errors={errors}
              onChange={(next) => edit.replace(k, next)}
            />
          </SubItem>
        );
      })}
    </SubList>
  );
}

/** A period's name, start and stop, with what an empty start or stop means for this clock. */
function PeriodFields({
  period,
  path,
  first,
  down,
  errors,
  onChange,
}: {
  period: Obj;
  path: string;
  first: boolean;
  down: boolean;
  errors: readonly FieldError[];
  onChange: (period: Obj) => void;
}) {
  const set = (key: string) => (value: unknown) => onChange(withKey(period, key, value));
  const startHint = first
    ? "The first period starts at the clock's default. Empty: the default."
    : `Empty: ${down ? "the clock's default" : 'where the period before stops'}.`;
  return (
    <>
      <TextField errors={errors} label="Name" path={`${path}.name`} value={period.name} onChange={set('name')} />
      <ClockTimeField
        label="Starts at (m:ss)"
        path={`${path}.startAt`}
        value={period.startAt}
        errors={errors}
        hint={startHint}
        onChange={set('startAt')}
      />
      <ClockTimeField
        label="Stops at (m:ss or none)"
        path={`${path}.stopAt`}
        value={period.stopAt}
        errors={errors}
        none
        hint={`Type none for a period that never stops. Empty: ${down ? '0:00' : 'none'}.`}
        onChange={set('stopAt')}
      />
    </>
  );
}

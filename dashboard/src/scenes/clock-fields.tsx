/**
 * Clock times in the editor (a clock's default and stop, a period's start and stop), typed as a clock reads
 * (45:00, 1:30:00, 0:09.5) and, where the format allows it, `none`. The field keeps what is typed while it means the
 * draft's value, so typing "4" on the way to "45:00" is not rewritten under the cursor.
 */
import { useEffect, useState } from 'preact/hooks';
import type { FieldError } from '../api.js';
import { parseClock } from '../live/clock-control.js';
import { TextField } from './fields.js';

/**
 * The draft value for what is typed: left out (empty), null (`none`, where `none` is allowed), milliseconds, or the
 * text for the server to refuse.
 */
export function clockValue(text: string | undefined, none = true): number | null | string | undefined {
  const t = (text ?? '').trim();
  if (t === '') return undefined;
  if (none && t.toLowerCase() === 'none') return null;
  return parseClock(t) ?? t;
}

/**
 * The text for a draft value: `none` for null, m:ss for milliseconds, minutes going on past 59 as a match clock
 * reads them (90:00, not 1:30:00; either is typed).
 */
export function clockValueText(value: unknown): string {
  if (value === null) return 'none';
  if (typeof value === 'string') return value;
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  return clockText(value);
}

function clockText(ms: number): string {
  const total = Math.floor(ms / 1000);
  const rest = ms - total * 1000;
  const s = String(total % 60).padStart(2, '0');
  const time = `${Math.floor(total / 60)}:${s}`;
  return rest === 0 ? time : `${time}.${String(rest).padStart(3, '0').replace(/0+$/, '')}`;
}

export interface ClockTimeFieldProps {
  label: string;
  value: unknown;
  path: string;
  errors: readonly FieldError[];
  hint?: string;
  /** Whether `none` (null: never stops) is a value; elsewhere the word goes to the server as typed, which refuses it. */
  none?: boolean;
  onChange: (value: unknown) => void;
}

export function ClockTimeField({ label, value, path, errors, hint, none = false, onChange }: ClockTimeFieldProps) {
  const [text, setText] = useState(() => clockValueText(value));
  // Undo, the JSON view, a reorder or a change of type can change the value under the field: show the new one,
  // from this render on (not a frame later).
  const typed = clockValue(text, none) === value;
  useEffect(() => {
    if (!typed) setText(clockValueText(value));
  }, [value]);
  return (
    <TextField
      errors={errors}
      label={label}
      path={path}
      value={typed ? text : clockValueText(value)}
      optional
      {...(hint === undefined ? {} : { hint })}
      onChange={(t) => {
        setText(t ?? '');
        onChange(clockValue(t, none));
      }}
    />
  );
}

/** A clock's own stop (one without periods). */
export function StopAtField({
  value,
  path,
  direction,
  errors,
  onChange,
}: {
  value: unknown;
  path: string;
  direction: unknown;
  errors: readonly FieldError[];
  onChange: (value: unknown) => void;
}) {
  const leftOut = direction === 'down' ? '0:00' : 'none';
  return (
    <ClockTimeField
      label="Stop at (m:ss or none)"
      value={value}
      path={path}
      errors={errors}
      none
      hint={`Where the running clock stops by itself; none never stops. Empty: ${leftOut} (the default ${direction === 'down' ? 'counting down' : 'counting up'}).`}
      onChange={onChange}
    />
  );
}

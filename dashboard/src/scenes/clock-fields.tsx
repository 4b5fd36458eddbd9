/**
 * A clock's stop in the editor, typed as a clock reads (45:00, 1:30:00, 0:09.5) or `none`. The field keeps what is
 * typed while it means the draft's value, so typing "4" on the way to "45:00" is not rewritten under the cursor.
 */
import { useEffect, useState } from 'preact/hooks';
import type { FieldError } from '../api.js';
import { parseClock } from '../live/clock-control.js';
import { TextField } from './fields.js';

/** The draft value for what is typed: left out (empty), null (`none`), milliseconds, or the text for the server to refuse. */
export function stopValue(text: string | undefined): number | null | string | undefined {
  const t = (text ?? '').trim();
  if (t === '') return undefined;
  if (t.toLowerCase() === 'none') return null;
  return parseClock(t) ?? t;
}

/** The text for a draft value: `none` for null, m:ss (h:mm:ss from an hour) for milliseconds. */
export function stopText(value: unknown): string {
  if (value === null) return 'none';
  if (typeof value === 'string') return value;
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  return clockText(value);
}

function clockText(ms: number): string {
  const total = Math.floor(ms / 1000);
  const rest = ms - total * 1000;
  const s = String(total % 60).padStart(2, '0');
  const m = Math.floor(total / 60);
  const time = m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${s}` : `${m}:${s}`;
  return rest === 0 ? time : `${time}.${String(rest).padStart(3, '0').replace(/0+$/, '')}`;
}

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
  const [text, setText] = useState(() => stopText(value));
  // Undo, the JSON view or a change of type can change the value under the field: show the new one.
  useEffect(() => {
    if (stopValue(text) !== value) setText(stopText(value));
  }, [value]);
  const leftOut = direction === 'down' ? '0:00' : 'none';
  return (
    <TextField
      errors={errors}
      label="Stop at (m:ss or none)"
      path={path}
      value={text}
      optional
      hint={`Where the running clock stops by itself; none never stops. Empty: ${leftOut} (the default ${direction === 'down' ? 'counting down' : 'counting up'}).`}
      onChange={(t) => {
        setText(t ?? '');
        onChange(stopValue(t));
      }}
    />
  );
}

import { useRef, useState } from 'preact/hooks';
import type { InputDef } from '@onair/protocol';
import type { LiveChannel } from './live-socket.js';

/** The step a key asks for: + / = / ↑ up, − / _ / ↓ down; 0 for any other key, or one held with Ctrl, Alt or Cmd. */
function stepOf(e: KeyboardEvent): number {
  if (e.ctrlKey || e.altKey || e.metaKey) return 0;
  if (e.key === '+' || e.key === '=' || e.key === 'ArrowUp') return 1;
  if (e.key === '-' || e.key === '_' || e.key === 'ArrowDown') return -1;
  return 0;
}

/**
 * A number input with big −/+ buttons (and the + / − / ↑ / ↓ keys while it or its field has focus: in the field
 * they step too, rather than type a sign). Quick clicks add up: each step starts from the value still waiting for
 * its ack, not from the last value drawn, so three clicks are +3. What is shown is the value on air; a step in
 * flight is shown beside it until the server confirms.
 */
export function NumberStepper({
  def,
  value,
  live,
  enabled,
}: {
  def: InputDef;
  value: number;
  live: LiveChannel;
  enabled: boolean;
}) {
  const [target, setTarget] = useState<number | null>(null);
  const inFlight = useRef(0);
  const [draft, setDraft] = useState<string | null>(null);

  const send = (next: number) => {
    inFlight.current += 1;
    setTarget(next);
    live
      .send(`${def.label}: ${next}`, { op: 'patch', inputs: { [def.name]: next } })
      .catch(() => setTarget(null))
      .finally(() => {
        inFlight.current -= 1;
        if (inFlight.current === 0) setTarget(null);
      });
  };
  const step = (by: number) => send((target ?? value) + by);
  const onKey = (e: KeyboardEvent) => {
    const by = enabled ? stepOf(e) : 0;
    if (by === 0) return;
    // Stepping drops a half-typed number: the step starts from the value on air, as a click does.
    setDraft(null);
    step(by);
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <div class="stepper" role="group" aria-label={def.label} tabIndex={0} onKeyDown={onKey} data-input={def.name}>
      <span class="input-label">{def.label}</span>
      <div class="stepper-row">
        {enabled && (
          <button type="button" class="big" aria-label={`${def.label} minus one`} onClick={() => step(-1)}>
            −
          </button>
        )}
        {enabled ? (
          <input
            class="value"
            inputMode="decimal"
            aria-label={`${def.label} value`}
            value={draft ?? String(value)}
            onInput={(e) => setDraft(e.currentTarget.value)}
            onBlur={() => setDraft(null)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setDraft(null);
              if (e.key !== 'Enter' || draft === null) return;
              const n = Number(draft.trim());
              if (draft.trim() !== '' && Number.isFinite(n)) send(n);
              setDraft(null);
            }}
          />
        ) : (
          <output class="value" aria-label={`${def.label} value`}>
            {value}
          </output>
        )}
        {enabled && (
          <button type="button" class="big" aria-label={`${def.label} plus one`} onClick={() => step(1)}>
            +
          </button>
        )}
      </div>
      {target !== null && target !== value && <span class="pending-note">→ {target} (sending)</span>}
    </div>
  );
}

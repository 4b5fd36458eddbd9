import { useEffect, useState } from 'preact/hooks';
import { formatClock } from '../../../renderer/src/format.js';
import { clockPeriod, clockTime, type ClockState, type InputDef } from '@onair/protocol';
import type { LiveChannel } from './live-socket.js';

/**
 * A game clock: its time drawn locally from the server's anchor (as the output page does), start/stop,
 * reset, set to a typed time (m:ss) and nudges of ±1 s and ±10 s. `S` starts or stops it while it has focus. A
 * clock with periods shows the one it is in, and **Next period** moves it on (stopped at the next one's start).
 */
export function ClockControl({
  def,
  clock,
  offsetMs,
  live,
  enabled,
}: {
  def: InputDef;
  clock: ClockState | undefined;
  offsetMs: number;
  live: LiveChannel;
  enabled: boolean;
}) {
  const [, setTick] = useState(0);
  const [draft, setDraft] = useState<string | null>(null);
  const running = clock?.running === true;
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => setTick((n) => n + 1), 100);
    return () => clearInterval(timer);
  }, [running]);
  const ms = clock ? clockTime(clock, def, Date.now() + offsetMs) : Number(def.default ?? 0);
  const period = clockPeriod(def, clock?.period);
  const periods = def.periods ?? [];
  const isLast = (clock?.period ?? 0) >= periods.length - 1;
  const act = (action: 'start' | 'stop' | 'reset' | 'set' | 'adjust' | 'period', value?: number) =>
    live
      .send(`${def.label}: ${action}${value === undefined ? '' : ` ${value / 1000} s`}`, {
        op: 'clock',
        name: def.name,
        action,
        ...(value === undefined ? {} : { ms: value }),
      })
      .catch(() => undefined);
  const toggle = () => act(running ? 'stop' : 'start');
  return (
    <div
      class="clock-control"
      role="group"
      aria-label={def.label}
      tabIndex={0}
      data-input={def.name}
      onKeyDown={(e) => {
        if (!enabled || (e.target as HTMLElement).tagName === 'INPUT') return;
        if (e.key === 's' || e.key === 'S') {
          e.preventDefault();
          e.stopPropagation();
          void toggle();
        }
      }}
    >
      <span class="input-label">{def.label}</span>
      <output class={`clock-face ${running ? 'running' : ''}`} aria-live="off" aria-label={`${def.label} time`}>
        {formatClock(ms, 'm:ss', def.direction ?? 'up')}
      </output>
      {period && <span class="clock-period">{period.name}</span>}
      {enabled && (
        <>
          <div class="row">
            <button
              type="button"
              class={running ? 'danger' : 'cue'}
              onClick={() => void toggle()}
              aria-keyshortcuts="S"
            >
              {running ? 'Stop' : 'Start'}
            </button>
            <button type="button" onClick={() => void act('reset')}>
              Reset
            </button>
            {period && (
              <button type="button" disabled={isLast} onClick={() => void act('period')}>
                Next period
              </button>
            )}
            <button type="button" onClick={() => void act('adjust', -10_000)}>
              −10s
            </button>
            <button type="button" onClick={() => void act('adjust', -1000)}>
              −1s
            </button>
            <button type="button" onClick={() => void act('adjust', 1000)}>
              +1s
            </button>
            <button type="button" onClick={() => void act('adjust', 10_000)}>
              +10s
            </button>
          </div>
          <label class="set-time">
            Set to (m:ss)
            <input
              value={draft ?? ''}
              placeholder="12:00"
              onInput={(e) => setDraft(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter' || draft === null) return;
                const value = parseClock(draft);
                if (value !== null) {
                  void act('set', value);
                  setDraft(null);
                }
              }}
            />
          </label>
        </>
      )}
    </div>
  );
}

/** "m:ss", "m:ss.t", "h:mm:ss" or plain seconds → milliseconds; null when it is none of those. */
export function parseClock(text: string): number | null {
  const parts = text.trim().split(':');
  if (parts.length > 3 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) return null;
  const seconds = parts.reduce((total, p) => total * 60 + Number(p), 0);
  return Number.isFinite(seconds) ? Math.round(seconds * 1000) : null;
}

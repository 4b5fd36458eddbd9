/**
 * Wakes the stage when a displayed running clock changes its text. A one-shot setTimeout aimed at the
 * next whole second, re-aimed after every render: requestAnimationFrame stops while a host hides the
 * source and setInterval drifts, while the text itself is always computed from the server anchor.
 */

export interface ClockTicker {
  /** Replaces any pending wake-up; null means no running clock is on screen. */
  schedule(delayMs: number | null): void;
}

export function createClockTicker(onTick: () => void): ClockTicker {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    schedule(delayMs) {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (delayMs === null) return;
      timer = setTimeout(() => {
        timer = undefined;
        onTick();
      }, delayMs);
    },
  };
}

/**
 * Calls `send(i)` for i = 0 … count-1, the i-th at `i / perSecond` seconds after the start, without waiting
 * for the sends: a steady offered load that does not slow down when the server under test does. Checks
 * every `stepMs`, so sends due together go out together (at most stepMs late).
 */
export function pace(perSecond: number, count: number, send: (i: number) => void, stepMs = 2): Promise<void> {
  const start = performance.now();
  let sent = 0;
  return new Promise((resolve) => {
    const step = () => {
      const due = Math.min(count, Math.floor(((performance.now() - start) / 1000) * perSecond) + 1);
      while (sent < due) send(sent++);
      if (sent >= count) return resolve();
      setTimeout(step, stepMs);
    };
    step();
  });
}

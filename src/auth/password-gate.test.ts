import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { PasswordGate } from './password-gate.js';

/** A task that runs until the test ends it; `started` tells whether the gate let it run. */
function task() {
  let end!: () => void;
  const state = { started: false };
  const done = new Promise<void>((resolve) => (end = resolve));
  const run = async () => {
    state.started = true;
    await done;
    return 'ok';
  };
  return { run, end, state };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => err,
  );

describe('PasswordGate', () => {
  it('runs at most `concurrency` tasks at once; the next starts when one ends', async () => {
    const gate = new PasswordGate({ concurrency: 2, maxWaitMs: 10_000 });
    const [a, b, c] = [task(), task(), task()];
    const runs = [gate.run('x', a.run), gate.run('y', b.run), gate.run('z', c.run)];
    await Promise.resolve();
    expect([a.state.started, b.state.started, c.state.started]).toEqual([true, true, false]);
    expect(gate.load()).toEqual({ running: 2, waiting: 1 });
    a.end();
    await expect(runs[0]).resolves.toBe('ok');
    await expect.poll(() => c.state.started).toBe(true);
    b.end();
    c.end();
    await Promise.all(runs);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses with 503 unavailable and Retry-After 1 an attempt that waited maxWaitMs, without running it', async () => {
    let refusals = 0;
    const gate = new PasswordGate({ concurrency: 1, maxWaitMs: 30, onRefused: () => refusals++ });
    const busy = task();
    const running = gate.run('x', busy.run);
    const next = gate.run('y', async () => 'next in line');
    const late = task();
    const err = await refusal(gate.run('z', late.run));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'unavailable', status: 503, retryAfter: 1 });
    expect(late.state.started).toBe(false);
    expect(refusals).toBe(1);
    // The next in line waited as long, and more: it is not refused, it runs when the slot frees.
    await new Promise((resolve) => setTimeout(resolve, 100));
    busy.end();
    await expect(next).resolves.toBe('next in line');
    await running;
  });

  it('refuses at once when nothing is free and maxWaitMs is 0', async () => {
    const gate = new PasswordGate({ concurrency: 1, maxWaitMs: 0 });
    const busy = task();
    const running = gate.run('x', busy.run);
    await expect(gate.run('x', async () => 'never')).rejects.toMatchObject({ code: 'unavailable' });
    busy.end();
    await running;
    await expect(gate.run('x', async () => 'free again')).resolves.toBe('free again');
  });

  it('frees the slot when a task fails', async () => {
    const gate = new PasswordGate({ concurrency: 1, maxWaitMs: 0 });
    await expect(gate.run('x', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run('x', async () => 'next')).resolves.toBe('next');
  });

  it('serves a source that asked least lately before the flooders that queued earlier', async () => {
    const gate = new PasswordGate({ concurrency: 1, maxWaitMs: 10_000 });
    const busy = task();
    const order: string[] = [];
    const running = gate.run('flood', busy.run);
    const queued = ['flood', 'flood', 'operator', 'flood'].map((source, i) =>
      gate.run(source, async () => void order.push(`${source}${i}`)),
    );
    busy.end();
    await Promise.all([running, ...queued]);
    expect(order).toEqual(['operator2', 'flood0', 'flood1', 'flood3']);
  });

  it('when the queue is full, a lighter source takes the busiest waiter’s place; a busy one is refused at once', async () => {
    const gate = new PasswordGate({ concurrency: 1, maxWaitMs: 10_000, maxWaiting: 2 });
    const busy = task();
    const running = gate.run('flood', busy.run);
    const first = gate.run('flood', async () => 'first');
    const second = refusal(gate.run('flood', async () => 'second'));
    const started = performance.now();
    expect(await refusal(gate.run('flood', async () => 'third'))).toMatchObject({ code: 'unavailable' });
    expect(performance.now() - started).toBeLessThan(1_000);
    const operator = gate.run('operator', async () => 'operator');
    expect(await second).toMatchObject({ code: 'unavailable' });
    busy.end();
    await expect(operator).resolves.toBe('operator');
    await expect(first).resolves.toBe('first');
    await running;
  });

  it('forgets usage as it ages: a source quiet for a while is light again', async () => {
    let now = 0;
    const gate = new PasswordGate({ concurrency: 1, maxWaitMs: 10_000, halfLifeMs: 1_000, now: () => now });
    for (let i = 0; i < 20; i++) await gate.run('old', async () => undefined);
    now = 60_000;
    const busy = task();
    const running = gate.run('other', busy.run);
    const order: string[] = [];
    const queued = [
      gate.run('other', async () => void order.push('other')),
      gate.run('old', async () => void order.push('old')),
    ];
    busy.end();
    await Promise.all([running, ...queued]);
    // 'other' asked once just now; 'old' asked 20 times a minute ago, which has halved 60 times since.
    expect(order).toEqual(['old', 'other']);
  });
});

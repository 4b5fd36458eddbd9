/**
 * Clocks with periods (docs/scenes.md, "Periods"): a football clock counting up through two halves and a basketball
 * clock counting down from 12:00 each quarter. The clock stops at its period's stop; `period` moves it on.
 */
import { describe, expect, it } from 'vitest';
import type { ClockState, InputDef } from '@onair/protocol';
import { AppError } from '../errors.js';
import { channelRecord, emptyLive, engineHarness, sceneRecord } from './engine.fixtures.js';

const CH = 'ch_p';
const HALF = 45 * 60_000;
const QUARTER = 12 * 60_000;

const inputs: InputDef[] = [
  {
    name: 'match',
    type: 'clock',
    label: 'Match',
    default: 0,
    direction: 'up',
    periods: [
      { name: '1st half', startAt: 0, stopAt: HALF },
      { name: '2nd half', startAt: HALF, stopAt: 2 * HALF },
    ],
  },
  {
    name: 'game',
    type: 'clock',
    label: 'Game',
    default: QUARTER,
    direction: 'down',
    periods: ['Q1', 'Q2', 'Q3', 'Q4'].map((name) => ({ name, startAt: QUARTER, stopAt: 0 })),
  },
];

function setup() {
  const scene = sceneRecord('sc_p', CH, inputs);
  return engineHarness([{ channel: channelRecord(CH), scenes: [scene], live: emptyLive(7) }]);
}
type Harness = ReturnType<typeof setup>;

async function clockOp(h: Harness, name: string, action: string, more: object = {}): Promise<ClockState> {
  const result = await h.run(CH, { kind: 'clock', name, action, ...more } as Parameters<Harness['run']>[1]);
  return result.clock!;
}

describe('clock periods', () => {
  it('a count-up clock stops at the end of the 1st half, goes on from 45:00 in the 2nd and stops at 90:00', async () => {
    const h = setup();
    const started = await clockOp(h, 'match', 'start');
    h.time.advance(HALF + 60_000);
    expect(h.engine.state(CH).clocks.match).toEqual({ running: false, ms: HALF, at: started.at + HALF });
    // Starting it again at its stop changes nothing: the half is over.
    expect(await clockOp(h, 'match', 'start')).toMatchObject({ running: false, ms: HALF });

    const second = await clockOp(h, 'match', 'period');
    expect(second).toMatchObject({ running: false, ms: HALF, period: 1 });
    const restarted = await clockOp(h, 'match', 'start');
    expect(restarted).toMatchObject({ running: true, ms: HALF, period: 1 });
    h.time.advance(HALF + 5 * 60_000);
    expect(h.engine.state(CH).clocks.match).toEqual({
      running: false,
      ms: 2 * HALF,
      at: restarted.at + HALF,
      period: 1,
    });
    // No period after the last; reset goes back to the first, at the default.
    await expect(clockOp(h, 'match', 'period')).rejects.toThrow(/last period \("2nd half"\)/);
    expect(await clockOp(h, 'match', 'reset')).toMatchObject({ running: false, ms: 0 });
    expect(h.engine.state(CH).clocks.match).not.toHaveProperty('period');
  });

  it('a countdown starts every quarter at 12:00; period takes an index; stop and set keep the period', async () => {
    const h = setup();
    await clockOp(h, 'game', 'start');
    h.time.advance(5 * 60_000);
    const stopped = await clockOp(h, 'game', 'stop');
    // Stopped at the tick that applied it, a frame or so after the 5 minutes.
    expect(stopped.running).toBe(false);
    expect(Math.abs(stopped.ms - 7 * 60_000)).toBeLessThan(1000);
    expect(await clockOp(h, 'game', 'period')).toMatchObject({ running: false, ms: QUARTER, period: 1 });
    expect(await clockOp(h, 'game', 'period', { period: 3 })).toMatchObject({ ms: QUARTER, period: 3 });
    expect(await clockOp(h, 'game', 'set', { ms: 30_000 })).toMatchObject({ ms: 30_000, period: 3 });
    const running = await clockOp(h, 'game', 'start');
    expect(running).toMatchObject({ running: true, period: 3 });
    expect((await clockOp(h, 'game', 'stop')).period).toBe(3);
    const err = await clockOp(h, 'game', 'period', { period: 4 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).errors).toEqual([{ path: 'period', message: 'must be 0 to 3' }]);
    // Back in the first period: stored as a clock that never left it.
    const first = await clockOp(h, 'game', 'period', { period: 0 });
    expect(first).toEqual({ running: false, ms: QUARTER, at: first.at });
  });

  it('a clock without periods refuses the period action', async () => {
    const scene = sceneRecord('sc_q', CH, [{ name: 'plain', type: 'clock', label: 'Plain', default: 0 }]);
    const h = engineHarness([{ channel: channelRecord(CH), scenes: [scene], live: emptyLive(7) }]);
    await expect(clockOp(h, 'plain', 'period')).rejects.toThrow(/has no periods/);
  });
});

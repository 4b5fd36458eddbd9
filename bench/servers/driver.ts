/**
 * The source of changes for the fan-out benchmark, inside the server's own process so that no input
 * path (REST or WebSocket parsing, which targets 2 and 3 measure) is counted: one new value per channel
 * per round, a round per event-loop turn, until stopped or `maxMs` is up.
 */
import type { Engine, ManualTime } from '../../src/engine/index.js';
import { BENCH_BY } from '../lib/bench-origin.js';

export type Stop = () => void;

/** onair: a patch per channel submitted for every tick, the next one as soon as the tick is durable. */
export function driveEngine(engine: Engine, channelIds: string[], maxMs: number): Stop {
  let running = true;
  const until = performance.now() + maxMs;
  const lane = async (id: string) => {
    for (let n = 1; running && performance.now() < until; n++) {
      await engine.submit(id, { kind: 'patch', values: new Map([['scoreA', n]]), by: BENCH_BY });
    }
  };
  for (const id of channelIds) void lane(id).catch(() => (running = false));
  return () => {
    running = false;
  };
}

/**
 * onair, a steady show: `perSecond` patches in all, to the channels in turn, as a timer sends them (not waiting
 * for their ticks), so the 60 fps clock has work at every frame whatever else the server does.
 */
export function paceEngine(engine: Engine, channelIds: string[], perSecond: number, maxMs: number): Stop {
  const everyMs = 10;
  const perStep = Math.max(1, Math.round((perSecond * everyMs) / 1000));
  const until = performance.now() + maxMs;
  let n = 0;
  const timer = setInterval(() => {
    if (performance.now() > until) return clearInterval(timer);
    for (let i = 0; i < perStep; i++, n++) {
      const id = channelIds[n % channelIds.length]!;
      engine.submit(id, { kind: 'patch', values: new Map([['scoreA', n]]), by: BENCH_BY }).catch(() => {});
    }
  }, everyMs);
  return () => clearInterval(timer);
}

/**
 * onair, `perTurn` frames per event-loop turn (the method of the targets' reference figures, where a tight
 * publish loop lets uWS put several frames for one socket into one write). The engine runs on a
 * ManualTime that this driver moves one frame at a time: per frame, a patch per channel is submitted, the
 * clock is advanced so the real tick runs (prepare → write → publish → acknowledge), and the acks are
 * awaited, all inside one turn (the SQLite write is synchronous, so only microtasks are involved).
 */
export function driveEngineFrames(
  engine: Engine,
  time: ManualTime,
  channelIds: string[],
  maxMs: number,
  perTurn: number,
): Stop {
  let running = true;
  let n = 0;
  const until = performance.now() + maxMs;
  const frameMs = 1000 / 60;
  const turn = async () => {
    for (let k = 0; k < perTurn; k++) {
      n++;
      const acks = channelIds.map((id) =>
        engine.submit(id, { kind: 'patch', values: new Map([['scoreA', n]]), by: BENCH_BY }),
      );
      time.advance(frameMs);
      await Promise.all(acks);
    }
    if (running && performance.now() < until) setImmediate(() => void turn().catch(() => (running = false)));
  };
  setImmediate(() => void turn().catch(() => (running = false)));
  return () => {
    running = false;
  };
}

export const driven = { rounds: 0, skipped: 0 };

/**
 * Baselines: `publishRound(n)` `perTurn` times per event-loop turn; a round that returns false was
 * skipped (backpressure).
 */
export function driveLoop(publishRound: (n: number) => boolean, maxMs: number, perTurn = 1): Stop {
  let running = true;
  let n = 0;
  const until = performance.now() + maxMs;
  const turn = () => {
    if (!running || performance.now() > until) return;
    for (let i = 0; i < perTurn; i++) {
      if (publishRound(n + 1)) driven.rounds = ++n;
      else driven.skipped++;
    }
    setImmediate(turn);
  };
  setImmediate(turn);
  return () => {
    running = false;
  };
}

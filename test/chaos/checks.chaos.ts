/**
 * The crash suite's checks can fail: made-up histories of what a broken server would do (answer before the commit,
 * apply half a patch, lose or invent an event, resend one change under a new id) against the checks of model.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  applyPlayout,
  checkDeliveries,
  checkEvents,
  checkSurvival,
  clockOpExplains,
  type ArrivalLike,
  type Buses,
  type ClockRecord,
  type ClockState,
  type EventLike,
  type Observed,
  type PlayoutRecord,
  type ValuesRecord,
} from './model.js';

const CH = 'ch_1';
const clock: ClockState = { running: false, ms: 720_000, at: 0 };
const buses: Buses = { program: { 10: 'sc_a' }, preview: {} };
const observed = (inputs: Observed['inputs'], extra: Partial<Observed> = {}): Observed => ({
  inputs: { scoreA: 0, home: 'HOME', scoreB: 0, period: 1, ...inputs },
  clock,
  buses,
  ...extra,
});

function patch(n: number, outcome: ValuesRecord['outcome'], before: Record<string, number | string>): ValuesRecord {
  const values: Record<string, number | string> = n % 2 ? { scoreA: n, home: `T-${n}` } : { scoreA: n };
  return { stream: 'patch', channelId: CH, epoch: 0, outcome, status: 200, n, values, before };
}

let seq = 0;
function event(type: string, data: Record<string, unknown>): EventLike {
  seq++;
  return {
    id: `evt_${String(seq).padStart(4, '0')}`,
    type,
    channelId: CH,
    createdAt: '2026-01-01T00:00:00.000Z',
    data,
  };
}

describe('survival of a kill', () => {
  const start = observed({});
  const r1 = patch(1, 'acked', { scoreA: 0, home: 'HOME' });
  const r2 = patch(2, 'acked', { scoreA: 1, home: 'T-1' });
  const r3 = patch(3, 'uncertain', { scoreA: 2, home: 'T-1' });

  it('accepts the last acknowledged value, or the one in flight applied whole', () => {
    expect(checkSurvival(CH, start, [r1, r2, r3], observed({ scoreA: 2, home: 'T-1' }))).toEqual([]);
    expect(checkSurvival(CH, start, [r1, r2, r3], observed({ scoreA: 3, home: 'T-3' }))).toEqual([]);
  });

  it('catches an acknowledged value lost (answered before the commit was durable)', () => {
    expect(checkSurvival(CH, start, [r1, r2], observed({ scoreA: 1, home: 'T-1' }))).toHaveLength(1);
    expect(checkSurvival(CH, start, [r1, r2, r3], observed({ scoreA: 0, home: 'HOME' }))).toHaveLength(1);
  });

  it('catches half a patch, and a value never sent', () => {
    expect(checkSurvival(CH, start, [r1, r2, r3], observed({ scoreA: 3, home: 'T-1' }))).toHaveLength(1);
    expect(checkSurvival(CH, start, [r1, r2, r3], observed({ scoreA: 4, home: 'T-1' }))).toHaveLength(1);
  });

  it('catches a playout op lost, and a clock op lost', () => {
    const cue: PlayoutRecord = {
      stream: 'playout',
      channelId: CH,
      epoch: 0,
      outcome: 'acked',
      status: 200,
      op: { kind: 'preview', sceneId: 'sc_b', layer: 20 },
      before: buses,
      answer: applyPlayout({ kind: 'preview', sceneId: 'sc_b', layer: 20 }, buses),
    };
    expect(checkSurvival(CH, start, [cue], observed({}, { buses: cue.answer! }))).toEqual([]);
    expect(checkSurvival(CH, start, [cue], observed({}))).toHaveLength(1);
    const started: ClockRecord = {
      stream: 'clock',
      channelId: CH,
      epoch: 0,
      outcome: 'uncertain',
      status: null,
      op: { action: 'start' },
      before: clock,
    };
    const running = { running: true, ms: 720_000, at: 5000 };
    expect(checkSurvival(CH, start, [started], observed({}, { clock: running }))).toEqual([]);
    expect(checkSurvival(CH, start, [{ ...started, outcome: 'acked', answer: running }], observed({}))).toHaveLength(1);
    expect(clockOpExplains({ action: 'stop' }, running, { running: false, ms: 719_000, at: 6000 })).toBe(true);
    expect(clockOpExplains({ action: 'stop' }, running, { running: false, ms: 719_500, at: 6000 })).toBe(false);
  });
});

describe('the event log', () => {
  const r1 = patch(1, 'acked', { scoreA: 0, home: 'HOME' });
  const r2 = patch(2, 'refused', { scoreA: 1, home: 'T-1' });
  const r3 = patch(3, 'uncertain', { scoreA: 1, home: 'T-1' });
  const e1 = event('channel.bind_updated', { inputs: r1.values, previous: {}, frame: 1, source: 'api' });
  const e3 = event('channel.bind_updated', { inputs: r3.values, previous: {}, frame: 3, source: 'api' });

  it('accepts an event per acknowledged write, and one for the write in flight or none', () => {
    expect(checkEvents([r1, r2, r3], [e1])).toEqual([]);
    expect(checkEvents([r1, r2, r3], [e1, e3])).toEqual([]);
  });

  it('catches an acknowledged write without its event, a refused write applied, a duplicate, disorder', () => {
    expect(checkEvents([r1, r2, r3], [])).toHaveLength(1);
    const e2 = event('channel.bind_updated', { inputs: r2.values, previous: {}, frame: 2, source: 'api' });
    expect(checkEvents([r1, r2, r3], [e1, e2])).toHaveLength(1);
    expect(checkEvents([r1, r2, r3], [e1, e1])).toHaveLength(2); // twice, and out of order
    expect(checkEvents([r1, r2, r3], [e3, e1])).toHaveLength(1);
    const phantom = event('channel.bind_updated', { inputs: { scoreA: 9 }, previous: {}, frame: 9, source: 'api' });
    expect(checkEvents([r1, r2, r3], [e1, phantom])).toHaveLength(1);
  });

  it('matches playout ops to their events', () => {
    const take: PlayoutRecord = {
      stream: 'playout',
      channelId: CH,
      epoch: 0,
      outcome: 'acked',
      status: 200,
      op: { kind: 'take' },
      before: { program: { 10: 'sc_a' }, preview: { 10: 'sc_c', 20: 'sc_b' } },
      answer: { program: { 10: 'sc_c', 20: 'sc_b' }, preview: {} },
    };
    const played = [
      event('channel.scene_loaded', { sceneId: 'sc_b', bus: 'program', layer: 20, source: 'api' }),
      event('channel.played', { sceneId: 'sc_b', previousSceneId: null, layer: 20, source: 'api' }),
      event('channel.scene_loaded', { sceneId: 'sc_c', bus: 'program', layer: 10, source: 'api' }),
      event('channel.played', { sceneId: 'sc_c', previousSceneId: 'sc_a', layer: 10, source: 'api' }),
    ];
    expect(checkEvents([take], played)).toEqual([]);
    expect(checkEvents([take], played.slice(1))).toHaveLength(1);
    expect(checkEvents([{ ...take, outcome: 'uncertain', answer: undefined }], played)).toEqual([]);
    expect(checkEvents([{ ...take, outcome: 'refused', answer: undefined }], played)).toHaveLength(4);
  });
});

describe('webhook deliveries', () => {
  const a = event('channel.cleared', { sceneId: 'sc_a', layer: 10, source: 'api' });
  const b = event('channel.played', { sceneId: 'sc_a', previousSceneId: null, layer: 10, source: 'api' });
  const arrival = (e: EventLike, status = 204, id = e.id): ArrivalLike => ({
    deliveryId: id,
    json: { ...e, id },
    status,
    signatureProblem: null,
  });

  it('accepts every event delivered at least once under its own id, or dropped', () => {
    const got = checkDeliveries([a, b], [arrival(a, 500), arrival(a), arrival(a), arrival(b)], []);
    expect(got.problems).toEqual([]);
    expect(got.summary.redelivered).toBe(1);
    expect(checkDeliveries([a, b], [arrival(a)], [{ eventId: b.id, outcome: 'dropped' }]).problems).toEqual([]);
  });

  it('catches an event never delivered, or only refused', () => {
    expect(checkDeliveries([a, b], [arrival(a)], []).problems).toHaveLength(1);
    expect(
      checkDeliveries([a, b], [arrival(a), arrival(b, 500)], [{ eventId: b.id, outcome: 'failed' }]).problems,
    ).toHaveLength(1);
  });

  it('catches one change delivered under two ids, and a delivery of no committed event', () => {
    const again = arrival(a, 204, 'evt_9999');
    const got = checkDeliveries([a, b], [arrival(a), arrival(b), again], []).problems;
    expect(got).toContain('delivery evt_9999: event evt_9999 is not in the event log');
    expect(got.some((p) => p.startsWith('one change delivered under 2 ids'))).toBe(true);
  });
});

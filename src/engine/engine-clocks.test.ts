/**
 * Clock inputs and triggers bound to inputs (docs/api.md, "Triggers and clocks"): clock ops on the manual
 * clock, a countdown that stops at zero by itself, and triggers that fire when a value changes.
 */
import { describe, expect, it } from 'vitest';
import type { ClockState, InputDef } from '@onair/protocol';
import { API_EVENT, channelRecord, emptyLive, engineHarness, sceneRecord } from './engine.fixtures.js';
import type { Origin } from './ops.js';
import { frameRate, frameStart } from './frame-rate.js';

const CH = 'ch_a';
const TEN_MIN = 600_000;
const clock = (name: string, ms: number, extra: Partial<InputDef> = {}): InputDef => ({
  name,
  type: 'clock',
  label: name,
  default: ms,
  ...extra,
});

const board = sceneRecord(
  'sc_board',
  CH,
  [
    { name: 'score', type: 'number', label: 'Score', default: 0 },
    clock('game', TEN_MIN, { direction: 'down' }),
    clock('half', 0, { direction: 'up', stopAt: 45 * 60_000 }),
  ],
  {
    triggers: [
      { name: 'scored', animation: 'pulse', on: 'score' },
      { name: 'kickoff', animation: 'flash', on: 'game' },
    ],
  },
);
const strap = sceneRecord('sc_strap', CH, [{ name: 'title', type: 'text', label: 'Title', default: '' }], {
  layer: 2,
});

function setup() {
  return engineHarness([{ channel: channelRecord(CH), scenes: [board, strap], live: emptyLive(7) }]);
}
type Harness = ReturnType<typeof setup>;

/** The tick that applied frame `frame` ran at the start of that frame. */
const tickTime = (frame: number) => Math.round(frameStart(frameRate(60), frame));

async function clockOp(h: Harness, name: string, action: 'start' | 'stop' | 'reset'): Promise<[ClockState, number]>;
async function clockOp(h: Harness, name: string, action: 'set' | 'adjust', ms: number): Promise<[ClockState, number]>;
async function clockOp(h: Harness, name: string, action: string, ms?: number): Promise<[ClockState, number]> {
  const op = { kind: 'clock', name, action, ...(ms === undefined ? {} : { ms }) } as Parameters<Harness['run']>[1];
  const result = await h.run(CH, op);
  return [result.clock!, result.frame];
}

describe('clock ops', () => {
  it('start: the clock runs from its default, dated with the tick; frame, answer and event agree', async () => {
    const h = setup();
    expect(h.engine.state(CH).clocks).toEqual({
      game: { running: false, ms: TEN_MIN, at: 0 },
      half: { running: false, ms: 0, at: 0 },
    });
    const [started, frame] = await clockOp(h, 'game', 'start');
    expect(started).toEqual({ running: true, ms: TEN_MIN, at: tickTime(frame) });
    expect(h.frames.at(-1)).toMatchObject({ frame, clocks: { game: started } });
    expect(h.frames.at(-1)).not.toHaveProperty('inputs');
    const bind = h.events.find((e) => e.type === 'channel.bind_updated')!;
    expect(bind.data).toEqual({
      inputs: { game: started },
      previous: { game: { running: false, ms: TEN_MIN, at: 0 } },
      frame,
      ...API_EVENT,
    });
    expect(h.committer.ticks.at(-1)!.changes[0]!.setClocks).toEqual(new Map([['game', started]]));
    // Clocks are not inputs: the patch route refuses them and state lists them apart.
    expect(h.engine.state(CH).inputs).toEqual({ score: 0, title: '' });
  });

  it('a countdown stops at zero by itself: state and snapshot read it stopped, and no frame is sent', async () => {
    const h = setup();
    const [started] = await clockOp(h, 'game', 'start');
    const frames = h.frames.length;
    h.time.advance(TEN_MIN / 2);
    expect(h.engine.state(CH).clocks.game).toEqual(started);
    h.time.advance(TEN_MIN);
    const stopped = { running: false, ms: 0, at: started.at + TEN_MIN };
    expect(h.engine.state(CH).clocks.game).toEqual(stopped);
    expect(h.engine.snapshot(CH).clocks.game).toEqual(stopped);
    expect(h.frames).toHaveLength(frames);
    // Starting it again at zero changes nothing.
    const [again] = await clockOp(h, 'game', 'start');
    expect(again).toEqual(stopped);
    expect(h.frames).toHaveLength(frames);
  });

  it('an up clock stops at its stopAt', async () => {
    const h = setup();
    const [started] = await clockOp(h, 'half', 'start');
    h.time.advance(50 * 60_000);
    expect(h.engine.state(CH).clocks.half).toEqual({ running: false, ms: 45 * 60_000, at: started.at + 45 * 60_000 });
  });

  it('stop freezes the time shown at the tick; start on a running clock and stop on a stopped one change nothing', async () => {
    const h = setup();
    const [started] = await clockOp(h, 'game', 'start');
    const frames = h.frames.length;
    const events = h.events.length;
    const [same] = await clockOp(h, 'game', 'start');
    expect(same).toEqual(started);
    expect([h.frames.length, h.events.length]).toEqual([frames, events]);
    await h.advance(1500);
    const [stopped, frame] = await clockOp(h, 'game', 'stop');
    const at = tickTime(frame);
    expect(stopped).toEqual({ running: false, ms: TEN_MIN - (at - started.at), at });
    h.time.advance(5000);
    expect(h.engine.state(CH).clocks.game).toEqual(stopped);
    const before = h.frames.length;
    expect((await clockOp(h, 'game', 'stop'))[0]).toEqual(stopped);
    expect(h.frames).toHaveLength(before);
  });

  it('set takes 0 to 100 h and keeps the clock running or stopped', async () => {
    const h = setup();
    const [set, frame] = await clockOp(h, 'game', 'set', 90_000);
    expect(set).toEqual({ running: false, ms: 90_000, at: tickTime(frame) });
    await clockOp(h, 'game', 'start');
    const [running, f2] = await clockOp(h, 'game', 'set', 30_000);
    expect(running).toEqual({ running: true, ms: 30_000, at: tickTime(f2) });
    for (const ms of [-1, 100 * 3_600_000 + 1, 1.5]) {
      expect((await h.refusal(CH, { kind: 'clock', name: 'game', action: 'set', ms })).code).toBe('invalid_request');
    }
    expect((await h.refusal(CH, { kind: 'clock', name: 'game', action: 'set' })).code).toBe('invalid_request');
  });

  it('reset goes back to the default, stopped; a second reset changes nothing', async () => {
    const h = setup();
    await clockOp(h, 'game', 'start');
    await h.advance(2000);
    const [reset, frame] = await clockOp(h, 'game', 'reset');
    expect(reset).toEqual({ running: false, ms: TEN_MIN, at: tickTime(frame) });
    const frames = h.frames.length;
    expect((await clockOp(h, 'game', 'reset'))[0]).toEqual(reset);
    expect(h.frames).toHaveLength(frames);
  });

  it('adjust adds within ±24 h and never goes below zero; a running countdown pushed past zero stops there', async () => {
    const h = setup();
    expect((await clockOp(h, 'game', 'adjust', 30_000))[0].ms).toBe(TEN_MIN + 30_000);
    expect((await clockOp(h, 'game', 'adjust', -86_400_000))[0].ms).toBe(0);
    await clockOp(h, 'game', 'set', 5000);
    await clockOp(h, 'game', 'start');
    const [pushed, frame] = await clockOp(h, 'game', 'adjust', -10_000);
    expect(pushed).toEqual({ running: false, ms: 0, at: tickTime(frame) });
    for (const ms of [86_400_001, -86_400_001]) {
      expect((await h.refusal(CH, { kind: 'clock', name: 'game', action: 'adjust', ms })).code).toBe('invalid_request');
    }
    const frames = h.frames.length;
    await clockOp(h, 'game', 'adjust', 0);
    expect(h.frames).toHaveLength(frames);
  });

  it('an unknown clock is not_found naming the closest; another input is invalid_request; a patch cannot set one', async () => {
    const h = setup();
    const unknown = await h.refusal(CH, { kind: 'clock', name: 'gmae', action: 'start' });
    expect(unknown.code).toBe('not_found');
    expect(unknown.extra).toEqual({ clock: 'gmae', closest: 'game' });
    expect((await h.refusal(CH, { kind: 'clock', name: 'score', action: 'start' })).code).toBe('invalid_request');
    const patch = await h.refusal(CH, { kind: 'patch', values: new Map([['game', 5]]) });
    expect(patch.code).toBe('invalid_request');
    expect(patch.message).toMatch(/clocks endpoint/);
  });
});

describe('triggers bound to an input', () => {
  it('fire when a patch changes the value, with the patch as source, for scenes on air or cued', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_board' });
    h.events.length = 0;
    const by: Origin = { source: 'dashboard', actor: { type: 'user', id: 'usr_1', name: 'op@example.com' } };
    const submitted = h.engine.submit(CH, { kind: 'patch', values: new Map([['score', 1]]), by });
    await h.advance();
    const { frame } = await submitted;
    expect(h.frames.at(-1)).toMatchObject({
      frame,
      inputs: { score: 1 },
      triggers: [{ name: 'scored', sceneId: 'sc_board', at: tickTime(frame) }],
    });
    expect(h.events.map((e) => [e.type, e.data.source, e.data.actor])).toEqual([
      ['channel.bind_updated', 'dashboard', by.actor],
      ['channel.trigger_fired', 'dashboard', by.actor],
    ]);
    expect(h.events[1]!.data).toMatchObject({ sceneId: 'sc_board', trigger: 'scored' });
  });

  it('do not fire when the value stays the same, or when the scene is neither on air nor cued', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_board' });
    await h.run(CH, { kind: 'patch', values: new Map([['score', 2]]) });
    const fired = h.events.filter((e) => e.type === 'channel.trigger_fired').length;
    await h.run(CH, { kind: 'patch', values: new Map([['score', 2]]) });
    await h.run(CH, { kind: 'clear' });
    await h.run(CH, { kind: 'patch', values: new Map([['score', 3]]) });
    expect(h.events.filter((e) => e.type === 'channel.trigger_fired')).toHaveLength(fired);
    expect(h.frames.at(-1)).not.toHaveProperty('triggers');
  });

  it('a trigger bound to a clock fires when a clock op changes it', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_board' });
    const [, frame] = await clockOp(h, 'game', 'start');
    expect(h.frames.at(-1)).toMatchObject({ frame, triggers: [{ name: 'kickoff', sceneId: 'sc_board' }] });
  });
});

describe('clocks and scene edits', () => {
  it('a new scene brings its clocks to renderers; a removed one takes its clocks and inputs with it', async () => {
    const h = setup();
    const shot = sceneRecord('sc_shot', CH, [clock('shot', 24_000, { direction: 'down' })], { layer: 3 });
    h.engine.upsertScene(shot);
    await h.advance();
    expect(h.frames.at(-1)!.clocks).toMatchObject({ shot: { running: false, ms: 24_000 }, game: { ms: TEN_MIN } });
    await clockOp(h, 'shot', 'start');
    h.engine.removeScene(CH, 'sc_shot');
    await h.advance();
    expect(h.frames.at(-1)).toMatchObject({ removedScenes: ['sc_shot'], removedClocks: ['shot'] });
    expect(h.frames.at(-1)).not.toHaveProperty('removedInputs');
    expect(h.committer.ticks.at(-1)!.changes[0]!.setClocks).toEqual(new Map([['shot', null]]));
    expect(Object.keys(h.engine.state(CH).clocks)).toEqual(['game', 'half']);

    await h.run(CH, { kind: 'patch', values: new Map([['title', 'Hello']]) });
    h.engine.removeScene(CH, 'sc_strap');
    await h.advance();
    expect(h.frames.at(-1)).toMatchObject({ removedInputs: ['title'] });
    expect(h.committer.ticks.at(-1)!.changes[0]!.setValues).toEqual(new Map([['title', null]]));
    // Declared again later, it starts from its default.
    h.engine.upsertScene(strap);
    await h.advance();
    expect(h.engine.state(CH).inputs.title).toBe('');
  });
});

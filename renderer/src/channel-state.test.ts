import { describe, expect, it } from 'vitest';
import type { FrameMessage, SnapshotMessage } from '@onair/protocol';
import { applyMessage, initialState, markDisconnected, own, type ChannelState } from './channel-state.js';
import { sceneView } from './test-scenes.js';

function snapshot(over: Partial<SnapshotMessage> = {}): SnapshotMessage {
  return {
    type: 'snapshot',
    channelId: 'ch_1',
    frame: 10,
    serverTime: 1_000_500,
    fps: 50,
    width: 1920,
    height: 1080,
    program: [{ sceneId: 'lower', layer: 10, itemId: null, values: {}, since: '2026-01-01T00:00:00.000Z' }],
    preview: [],
    scenes: [sceneView('lower', { layer: 10 }), sceneView('score', { layer: 20 })],
    inputs: { name: 'Jane' },
    clocks: { timer: { running: false, ms: 0, at: 0 } },
    ...over,
  };
}

function frame(prev: number, over: Partial<FrameMessage> = {}): FrameMessage {
  return { type: 'frame', channelId: 'ch_1', frame: prev + 1, prev, serverTime: 1_001_000, ...over };
}

function loaded(): ChannelState {
  return applyMessage(initialState(), snapshot(), 1_000_000).state;
}

const since = '2026-01-01T00:00:01.000Z';

describe('channel state', () => {
  it('starts unloaded, so the stage draws nothing before a snapshot', () => {
    expect(initialState().loaded).toBe(false);
    const { state, outcome } = applyMessage(initialState(), frame(9), 0);
    expect(outcome).toBe('ignored');
    expect(state.loaded).toBe(false);
  });

  it('takes everything from a snapshot, estimates the server offset, and asks for a settled drawing', () => {
    const { state, effects } = applyMessage(initialState(), snapshot(), 1_000_000);
    expect(state).toMatchObject({ loaded: true, synced: true, frame: 10, fps: 50, width: 1920, height: 1080 });
    expect(state.program.map((e) => e.sceneId)).toEqual(['lower']);
    expect(Object.keys(state.scenes)).toEqual(['lower', 'score']);
    expect(state.inputs).toEqual({ name: 'Jane' });
    expect(state.serverOffsetMs).toBe(500);
    expect(effects).toEqual({ settle: true, layers: [], triggers: [] });
  });

  it('sorts the buses by layer', () => {
    const program = [
      { sceneId: 'score', layer: 20, itemId: null, values: {}, since },
      { sceneId: 'lower', layer: 10, itemId: null, values: {}, since },
    ];
    const state = applyMessage(initialState(), snapshot({ program }), 0).state;
    expect(state.program.map((e) => e.layer)).toEqual([10, 20]);
  });

  it('applies frames whose prev is the last frame applied, merging only what they carry', () => {
    const clocks = { timer: { running: true, ms: 0, at: 1_001_000 } };
    const { state, outcome } = applyMessage(loaded(), frame(10, { inputs: { score: 3 }, clocks }), 1_000_600);
    expect(outcome).toBe('applied');
    expect(state.frame).toBe(11);
    expect(state.inputs).toEqual({ name: 'Jane', score: 3 });
    expect(state.clocks).toEqual(clocks);
    expect(state.program.map((e) => e.sceneId)).toEqual(['lower']);
  });

  it('removes inputs, clocks and scenes a frame names', () => {
    const { state } = applyMessage(
      loaded(),
      frame(10, { removedInputs: ['name'], removedClocks: ['timer'], removedScenes: ['score'] }),
      0,
    );
    expect(state.inputs).toEqual({});
    expect(state.clocks).toEqual({});
    expect(Object.keys(state.scenes)).toEqual(['lower']);
  });

  it('reports a gap when prev does not match, then ignores frames until the next snapshot', () => {
    const gap = applyMessage(loaded(), frame(12, { inputs: { name: 'Lost' } }), 0);
    expect(gap.outcome).toBe('gap');
    expect(gap.state.synced).toBe(false);
    expect(gap.state.inputs).toEqual({ name: 'Jane' });
    const after = applyMessage(gap.state, frame(13, { inputs: { name: 'Still lost' } }), 0);
    expect(after.outcome).toBe('ignored');
    const resynced = applyMessage(after.state, snapshot({ frame: 20, inputs: { name: 'Back' } }), 0);
    expect(resynced.state).toMatchObject({ synced: true, frame: 20, inputs: { name: 'Back' } });
    expect(applyMessage(resynced.state, frame(20), 0).outcome).toBe('applied');
  });

  it('upserts and removes scenes', () => {
    const changed = sceneView('lower', { layer: 10, elements: [] });
    const { state } = applyMessage(
      loaded(),
      frame(10, { scenes: [changed, sceneView('new')], removedScenes: ['score'] }),
      0,
    );
    expect(Object.keys(state.scenes).sort()).toEqual(['lower', 'new']);
    expect(state.scenes.lower).toBe(changed);
  });

  it('reports each program layer a frame changes: animated, or cut when listed in cutLayers', () => {
    const program = [
      { sceneId: 'score', layer: 20, itemId: null, values: {}, since },
      { sceneId: 'other', layer: 30, itemId: null, values: {}, since },
    ];
    const { state, effects } = applyMessage(loaded(), frame(10, { program, cutLayers: [30] }), 0);
    expect(state.program.map((e) => e.sceneId)).toEqual(['score', 'other']);
    expect(effects.settle).toBe(false);
    expect(effects.layers).toEqual([
      { layer: 10, mode: 'animate', at: 1_001_000 },
      { layer: 20, mode: 'animate', at: 1_001_000 },
      { layer: 30, mode: 'cut', at: 1_001_000 },
    ]);
  });

  it('reports no layer change when the program is resent unchanged, or when only preview changes', () => {
    const same = [{ sceneId: 'lower', layer: 10, itemId: null, values: {}, since: '2026-01-01T00:00:00.000Z' }];
    expect(applyMessage(loaded(), frame(10, { program: same }), 0).effects.layers).toEqual([]);
    const cued = applyMessage(
      loaded(),
      frame(10, { preview: [{ sceneId: 'score', layer: 20, itemId: null, values: {} }] }),
      0,
    );
    expect(cued.state.preview).toEqual([{ sceneId: 'score', layer: 20, itemId: null, values: {} }]);
    expect(cued.effects.layers).toEqual([]);
  });

  it('reports a new instance of the scene on air as a change, and new values of the same instance as none', () => {
    const onAir = { sceneId: 'lower', layer: 10, itemId: null, values: {}, since: '2026-01-01T00:00:00.000Z' };
    const updated = applyMessage(loaded(), frame(10, { program: [{ ...onAir, values: { name: 'B' } }] }), 0);
    expect(updated.state.program[0]?.values).toEqual({ name: 'B' });
    expect(updated.effects.layers).toEqual([]);
    const taken = applyMessage(loaded(), frame(10, { program: [{ ...onAir, itemId: 'it_b', since }] }), 0);
    expect(taken.effects.layers).toEqual([{ layer: 10, mode: 'animate', at: 1_001_000 }]);
    const recut = applyMessage(loaded(), frame(10, { program: [{ ...onAir, since }], cutLayers: [10] }), 0);
    expect(recut.effects.layers).toEqual([{ layer: 10, mode: 'cut', at: 1_001_000 }]);
  });

  it('hands fired triggers to the stage without keeping them in the state', () => {
    const triggers = [{ name: 'goal', sceneId: 'lower', at: 1_001_000 }];
    const { state, effects } = applyMessage(loaded(), frame(10, { triggers }), 0);
    expect(effects.triggers).toEqual(triggers);
    expect(JSON.stringify(state)).not.toContain('goal');
  });

  it('never mutates the state it was given', () => {
    const before = loaded();
    const copy = JSON.parse(JSON.stringify(before)) as ChannelState;
    applyMessage(before, frame(10, { inputs: { name: 'X' }, removedScenes: ['lower'], program: [] }), 0);
    expect(before).toEqual(copy);
  });

  it('estimates the server clock from frames and heartbeats alike, keeping the best sample', () => {
    const state = loaded();
    const slower = applyMessage(state, frame(10, { serverTime: 1_002_000 }), 1_001_800).state;
    expect(slower.serverOffsetMs).toBe(500);
    const faster = applyMessage(slower, frame(11, { serverTime: 1_003_000 }), 1_002_300).state;
    expect(faster.serverOffsetMs).toBe(700);
    const beat = applyMessage(faster, { type: 'heartbeat', serverTime: 1_004_000 }, 1_003_200);
    expect(beat.outcome).toBe('ignored');
    expect(beat.state.serverOffsetMs).toBe(800);
    expect(beat.state.frame).toBe(12);
  });

  it('starts the estimate over with each snapshot (it may come from another server)', () => {
    const state = applyMessage(loaded(), frame(10, { serverTime: 1_010_000 }), 1_000_000).state;
    expect(state.serverOffsetMs).toBe(10_000);
    expect(applyMessage(state, snapshot({ serverTime: 2_000_100 }), 2_000_000).state.serverOffsetMs).toBe(100);
  });

  it('ignores frames for another channel', () => {
    expect(applyMessage(loaded(), frame(10, { channelId: 'ch_2' }), 0).outcome).toBe('ignored');
  });

  it('waits for a snapshot after a disconnect but keeps showing what it had', () => {
    const state = markDisconnected(loaded());
    expect(state).toMatchObject({ loaded: true, synced: false });
    expect(applyMessage(state, frame(10), 0).outcome).toBe('ignored');
  });

  it('looks up own properties only', () => {
    expect(own(loaded().inputs, 'constructor')).toBeUndefined();
    expect(own(loaded().inputs, 'name')).toBe('Jane');
  });
});

import { describe, expect, it } from 'vitest';
import type { FrameMessage, SceneView, SnapshotMessage } from '../../src/protocol/index.js';
import { applyMessage, initialState, markDisconnected, own, type ChannelState } from './channel-state.js';

function scene(id: string, text = `{name}`): SceneView {
  return {
    id,
    name: id,
    definition: {
      inputs: [{ name: 'name', type: 'text', label: 'Name', default: '' }],
      triggers: [],
      layers: [{ type: 'text', x: 0, y: 0, width: 100, height: 50, text, fontSize: 20 }],
    },
  };
}

function snapshot(over: Partial<SnapshotMessage> = {}): SnapshotMessage {
  return {
    type: 'snapshot',
    channelId: 'ch_1',
    frame: 10,
    serverTime: 1_000_500,
    fps: 50,
    width: 1920,
    height: 1080,
    program: { sceneId: 'lower', since: '2026-01-01T00:00:00.000Z' },
    preview: null,
    scenes: [scene('lower'), scene('score')],
    inputs: { name: 'Jane' },
    clocks: {},
    ...over,
  };
}

function frame(prev: number, over: Partial<FrameMessage> = {}): FrameMessage {
  return { type: 'frame', channelId: 'ch_1', frame: prev + 1, prev, serverTime: 1_001_000, ...over };
}

function loaded(): ChannelState {
  return applyMessage(initialState(), snapshot(), 1_000_000).state;
}

describe('channel state', () => {
  it('starts unloaded, so the stage draws nothing before a snapshot', () => {
    expect(initialState().loaded).toBe(false);
    const { state, outcome } = applyMessage(initialState(), frame(9), 0);
    expect(outcome).toBe('ignored');
    expect(state.loaded).toBe(false);
  });

  it('takes everything from a snapshot and estimates the server offset', () => {
    const state = loaded();
    expect(state).toMatchObject({ loaded: true, synced: true, frame: 10, fps: 50, width: 1920, height: 1080 });
    expect(state.program?.sceneId).toBe('lower');
    expect(Object.keys(state.scenes)).toEqual(['lower', 'score']);
    expect(state.inputs).toEqual({ name: 'Jane' });
    expect(state.serverOffsetMs).toBe(500);
  });

  it('applies frames whose prev is the last frame applied, merging only what they carry', () => {
    const clocks = { timer: { running: true, ms: 0, at: 1_001_000 } };
    const { state, outcome } = applyMessage(loaded(), frame(10, { inputs: { score: 3 }, clocks }), 1_000_600);
    expect(outcome).toBe('applied');
    expect(state.frame).toBe(11);
    expect(state.inputs).toEqual({ name: 'Jane', score: 3 });
    expect(state.clocks).toEqual(clocks);
    expect(state.program?.sceneId).toBe('lower');
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
    const changed = scene('lower', 'Now: {name}');
    const { state } = applyMessage(
      loaded(),
      frame(10, { scenes: [changed, scene('new')], removedScenes: ['score'] }),
      0,
    );
    expect(Object.keys(state.scenes).sort()).toEqual(['lower', 'new']);
    expect(state.scenes.lower).toBe(changed);
  });

  it('changes program and preview, with null clearing a bus and absence leaving it alone', () => {
    const taken = applyMessage(loaded(), frame(10, { program: { sceneId: 'score', since: 'x' } }), 0).state;
    expect(taken.program?.sceneId).toBe('score');
    const previewed = applyMessage(taken, frame(11, { preview: { sceneId: 'lower' } }), 0).state;
    expect(previewed.program?.sceneId).toBe('score');
    expect(previewed.preview?.sceneId).toBe('lower');
    const cleared = applyMessage(previewed, frame(12, { program: null }), 0).state;
    expect(cleared.program).toBeNull();
  });

  it('never mutates the state it was given', () => {
    const before = loaded();
    const copy = JSON.parse(JSON.stringify(before)) as ChannelState;
    applyMessage(before, frame(10, { inputs: { name: 'X' }, removedScenes: ['lower'] }), 0);
    expect(before).toEqual(copy);
  });

  it('keeps the largest offset sample, since latency only makes samples smaller', () => {
    const state = loaded();
    const slower = applyMessage(state, frame(10, { serverTime: 1_002_000 }), 1_001_800).state;
    expect(slower.serverOffsetMs).toBe(500);
    const faster = applyMessage(slower, frame(11, { serverTime: 1_003_000 }), 1_002_300).state;
    expect(faster.serverOffsetMs).toBe(700);
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

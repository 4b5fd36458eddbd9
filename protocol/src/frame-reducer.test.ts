import { describe, expect, it } from 'vitest';
import { applyFrame, emptyLiveState, stateFromSnapshot, type LiveState } from './frame-reducer.js';
import type { FrameMessage, SnapshotMessage } from './messages.js';
import type { SceneView } from './scene.js';

function scene(id: string): SceneView {
  return {
    id,
    name: id,
    definition: {
      version: 1,
      layer: 10,
      inputs: [],
      elements: [],
      transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
      triggers: [],
    },
  };
}

const snapshot: SnapshotMessage = {
  type: 'snapshot',
  channelId: 'ch_1',
  frame: 10,
  serverTime: 1_000,
  fps: 50,
  width: 1920,
  height: 1080,
  program: [
    { sceneId: 'b', layer: 20, since: 't', itemId: null, values: {} },
    { sceneId: 'a', layer: 10, since: 't', itemId: null, values: {} },
  ],
  preview: [],
  scenes: [scene('a'), scene('b')],
  inputs: { home: 'LIONS', scoreA: 1 },
  clocks: { gameClock: { running: false, ms: 0, at: 0 } },
};

function frame(over: Partial<FrameMessage> = {}): FrameMessage {
  return { type: 'frame', channelId: 'ch_1', frame: 11, prev: 10, serverTime: 1_020, ...over };
}

describe('the frame reducer', () => {
  it('starts empty, at frame -1, so that any frame before the first snapshot is a gap', () => {
    expect(emptyLiveState()).toMatchObject({ frame: -1, program: [], scenes: {}, inputs: {} });
    expect(applyFrame(emptyLiveState(), frame({ prev: 0, frame: 1 }))).toBe('gap');
  });

  it('takes a snapshot whole: buses sorted by layer, scenes by id', () => {
    const state = stateFromSnapshot(snapshot);
    expect(state).toMatchObject({ channelId: 'ch_1', frame: 10, serverTime: 1_000, fps: 50, inputs: { scoreA: 1 } });
    expect(state.program.map((e) => e.layer)).toEqual([10, 20]);
    expect(Object.keys(state.scenes)).toEqual(['a', 'b']);
  });

  it('applies a frame that follows: what it carries changes, what it leaves out stays', () => {
    const before = stateFromSnapshot(snapshot);
    const after = applyFrame(
      before,
      frame({ inputs: { scoreA: 2 }, removedInputs: ['home'], removedScenes: ['b'], fps: 25 }),
    );
    expect(after).not.toBe('gap');
    expect(after).toMatchObject({ frame: 11, serverTime: 1_020, fps: 25, inputs: { scoreA: 2 } });
    if (after === 'gap') return;
    expect(Object.keys(after.scenes)).toEqual(['a']);
    expect(after.clocks).toBe(before.clocks);
    expect(after.program).toBe(before.program);
  });

  it('answers gap for a frame whose prev is not the last frame applied', () => {
    const state = stateFromSnapshot(snapshot);
    expect(applyFrame(state, frame({ prev: 9 }))).toBe('gap');
    expect(applyFrame(state, frame({ prev: 11, frame: 12 }))).toBe('gap');
  });

  it('never changes the state it was given', () => {
    const before = stateFromSnapshot(snapshot);
    const copy = structuredClone(before);
    applyFrame(before, frame({ inputs: { scoreA: 9 }, removedClocks: ['gameClock'], program: [], scenes: [] }));
    expect(before).toEqual(copy);
  });

  it("keeps a client's own fields around the state", () => {
    const wrapped: LiveState & { synced: boolean } = { ...stateFromSnapshot(snapshot), synced: true };
    const after = applyFrame(wrapped, frame({ inputs: { scoreA: 3 } }));
    expect(after).toMatchObject({ synced: true, inputs: { scoreA: 3 } });
  });
});

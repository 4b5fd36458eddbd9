import { describe, expect, it } from 'vitest';
import type { FrameMessage } from '@onair/protocol';
import { followFrame, type FollowedChannel } from './follow-frame.js';
import { definition } from './engine.fixtures.js';

const base: FollowedChannel = {
  channelId: 'ch_1',
  frame: 100,
  serverTime: 1_699_999_999_000,
  fps: 60,
  width: 1920,
  height: 1080,
  program: [],
  preview: [],
  scenes: { sc_a: { id: 'sc_a', name: 'A', definition: definition([]) } },
  inputs: { score: 1, team: 'Home' },
  clocks: {},
  rundowns: {},
  schedule: [],
};

const frame = (fields: Partial<FrameMessage>): FrameMessage => ({
  type: 'frame',
  channelId: 'ch_1',
  frame: 101,
  prev: 100,
  serverTime: 1_700_000_000_000,
  ...fields,
});

describe('followFrame', () => {
  it("applies a frame that follows the state's: changed inputs, clocks, buses, scenes and format", () => {
    const program = [
      { layer: 0, sceneId: 'sc_b', itemId: null, values: { name: 'B' }, since: '2023-11-14T22:13:20.000Z' },
    ];
    const scene = { id: 'sc_b', name: 'B', definition: definition([]) };
    const clock = { running: true, ms: 0, at: 1 };
    const { state, outcome } = followFrame(
      base,
      frame({
        inputs: { score: 2 },
        removedInputs: ['team'],
        clocks: { game: clock },
        program,
        scenes: [scene],
        removedScenes: ['sc_a'],
        fps: 50,
      }),
    );
    expect(outcome).toBe('applied');
    expect({ ...state, inputs: { ...state.inputs }, scenes: { ...state.scenes }, clocks: { ...state.clocks } }).toEqual(
      {
        ...base,
        frame: 101,
        serverTime: 1_700_000_000_000,
        fps: 50,
        inputs: { score: 2 },
        clocks: { game: clock },
        program,
        scenes: { sc_b: scene },
      },
    );
    expect(base.inputs).toEqual({ score: 1, team: 'Home' }); // the state it was given is not changed
  });

  it('leaves the state as it is for a frame it has (stale) or one that skips a frame (gap)', () => {
    expect(followFrame(base, frame({ frame: 100, prev: 99 }))).toEqual({ state: base, outcome: 'stale' });
    expect(followFrame(base, frame({ frame: 103, prev: 102 }))).toEqual({ state: base, outcome: 'gap' });
    // A new frame rate restarts the numbers lower: not a stale frame, a gap (the copy is loaded afresh).
    expect(followFrame(base, frame({ frame: 90, prev: 89, fps: 25 })).outcome).toBe('gap');
  });

  it('treats every input name as a plain key', () => {
    const { state } = followFrame(base, frame({ inputs: JSON.parse('{"__proto__": 5}') as Record<string, number> }));
    expect(Object.entries(state.inputs)).toContainEqual(['__proto__', 5]);
    expect(Object.getPrototypeOf(state.inputs)).toBeNull();
  });
});

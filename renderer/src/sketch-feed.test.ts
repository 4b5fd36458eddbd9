import { describe, expect, it } from 'vitest';
import type { SnapshotMessage } from '@onair/protocol';
import { applyMessage, initialState } from './channel-state.js';
import { sketchSnapshot, type SketchEvent } from './sketch-feed.js';

const parent = { name: 'the dashboard window' };
const sender = { origin: 'https://tv.example', parent };

const snapshot: SnapshotMessage = {
  type: 'snapshot',
  channelId: 'ch_1',
  frame: 0,
  serverTime: 1_000,
  fps: 50,
  width: 1920,
  height: 1080,
  program: [{ sceneId: 'sc_1', layer: 10, itemId: null, values: {}, since: '2026-01-01T00:00:00.000Z' }],
  preview: [],
  scenes: [
    {
      id: 'sc_1',
      name: 'Strip',
      definition: {
        version: 1,
        layer: 10,
        inputs: [{ name: 'line', type: 'text', label: 'line', default: 'Hello' }],
        elements: [{ type: 'text', x: 0, y: 0, width: 400, height: 80, text: '{line}', fontSize: 48 }],
        transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
        triggers: [],
      },
    },
  ],
  inputs: { line: 'Hello' },
  clocks: {},
};

const post = (over: Partial<SketchEvent> = {}): SketchEvent => ({
  origin: 'https://tv.example',
  source: parent,
  data: { type: 'onair.sketch', snapshot },
  ...over,
});

describe('sketch posts', () => {
  it('takes the snapshot its same-origin parent posts', () => {
    expect(sketchSnapshot(post(), sender)).toBe(snapshot);
  });

  it('ignores another origin, another window, and a page with no parent', () => {
    expect(sketchSnapshot(post({ origin: 'https://evil.example' }), sender)).toBeNull();
    expect(sketchSnapshot(post({ origin: 'null' }), sender)).toBeNull();
    expect(sketchSnapshot(post({ source: { name: 'a sibling frame' } }), sender)).toBeNull();
    expect(sketchSnapshot(post({ source: null }), sender)).toBeNull();
    expect(sketchSnapshot(post({ source: null }), { ...sender, parent: null })).toBeNull();
  });

  it('ignores messages that are not sketches, or whose snapshot is malformed', () => {
    for (const data of [
      null,
      'onair.sketch',
      [snapshot],
      { type: 'other', snapshot },
      { type: 'onair.sketch' },
      { type: 'onair.sketch', snapshot: { ...snapshot, type: 'frame' } },
      { type: 'onair.sketch', snapshot: { ...snapshot, width: '1920' } },
      { type: 'onair.sketch', snapshot: { ...snapshot, serverTime: Number.NaN } },
      { type: 'onair.sketch', snapshot: { ...snapshot, scenes: {} } },
      { type: 'onair.sketch', snapshot: { ...snapshot, inputs: null } },
      { type: 'onair.sketch', snapshot: { ...snapshot, channelId: 1 } },
    ]) {
      expect(sketchSnapshot(post({ data }), sender), JSON.stringify(data)).toBeNull();
    }
  });

  it('is applied by the reducer like a socket snapshot: each post replaces the state, settled', () => {
    const first = applyMessage(initialState(), sketchSnapshot(post(), sender)!, 2_000);
    expect(first.outcome).toBe('applied');
    expect(first.effects.settle).toBe(true);
    const edited = { ...snapshot, program: [], inputs: { line: 'Bye' } };
    const second = applyMessage(
      first.state,
      sketchSnapshot(post({ data: { type: 'onair.sketch', snapshot: edited } }), sender)!,
      3_000,
    );
    expect(second.state).toMatchObject({ loaded: true, program: [], inputs: { line: 'Bye' } });
  });
});

import { describe, expect, it } from 'vitest';
import type { BusEntry, FrameMessage, SnapshotMessage } from '@onair/protocol';
import { applyMessage, initialState, type ChannelState } from './channel-state.js';
import { createDrawnEntries } from './drawn-entries.js';
import { createSceneValues } from './scene-values.js';
import { sceneView } from './test-scenes.js';

const lower = sceneView('lower', {
  layer: 20,
  inputs: [
    { name: 'name', type: 'text', label: 'Name', scope: 'item', default: 'Name' },
    { name: 'show', type: 'text', label: 'Show', default: '' },
  ],
});
const since = '2026-01-01T00:00:00.000Z';
const entry = (sceneId: string, values: BusEntry['values'], itemId: string | null = null): BusEntry => ({
  sceneId,
  layer: 20,
  itemId,
  values,
});

function snapshot(): SnapshotMessage {
  return {
    type: 'snapshot',
    channelId: 'ch_1',
    frame: 10,
    serverTime: 1_000_000,
    fps: 50,
    width: 1920,
    height: 1080,
    program: [{ ...entry('lower', { name: 'A' }, 'it_a'), since }],
    preview: [entry('lower', { name: 'B' }, 'it_b')],
    scenes: [lower],
    inputs: { name: 'Channel', show: 'Evening News' },
    clocks: {},
  };
}

function frame(prev: number, over: Partial<FrameMessage>): FrameMessage {
  return { type: 'frame', channelId: 'ch_1', frame: prev + 1, prev, serverTime: 1_001_000, ...over };
}

/** What the stage writes for the scene drawn on layer 20 of `bus`, as it writes it in a drawing pass. */
function drawnText(state: ChannelState, bus: 'program' | 'preview', drawn = { scene: lower }): string {
  const entries = createDrawnEntries();
  const entry = entries.entryFor(drawn, 20, state[bus]);
  return createSceneValues(drawn.scene, { ...state, entry, overrides: {}, serverNow: 0 }).fill('{name} · {show}');
}

describe('drawn entries', () => {
  it('draws two instances of one scene with their own values: A on program, B on preview', () => {
    const state = applyMessage(initialState(), snapshot(), 0).state;
    expect(drawnText(state, 'program')).toBe('A · Evening News');
    expect(drawnText(state, 'preview')).toBe('B · Evening News');
  });

  it('draws a value updated on air in the next pass, without a layer change', () => {
    const state = applyMessage(initialState(), snapshot(), 0).state;
    const updated = [{ ...entry('lower', { name: 'A. Smith' }, 'it_a'), since }];
    const { state: next, effects } = applyMessage(state, frame(10, { program: updated }), 0);
    expect(effects.layers).toEqual([]);
    expect(drawnText(next, 'program')).toBe('A. Smith · Evening News');
    // A value given back to the channel: the instance draws the channel's.
    const back = [{ ...entry('lower', {}, 'it_a'), since }];
    expect(drawnText(applyMessage(next, frame(11, { program: back }), 0).state, 'program')).toBe(
      'Channel · Evening News',
    );
  });

  it('follows the entry on its layer while it is of the drawn scene, and keeps the last one while it is not', () => {
    const entries = createDrawnEntries();
    const drawn = { scene: lower };
    const a = entry('lower', { name: 'A' });
    expect(entries.entryFor(drawn, 20, [a])).toBe(a);
    const a2 = entry('lower', { name: 'A2' });
    expect(entries.entryFor(drawn, 20, [a2])).toBe(a2);
    // The layer waits to change to another scene: the drawn one keeps its values.
    expect(entries.entryFor(drawn, 20, [entry('other', { name: 'X' })])).toBe(a2);
    expect(entries.entryFor(drawn, 20, [])).toBe(a2);
    // Another drawing of the layer has no memory of it.
    expect(entries.entryFor({ scene: lower }, 20, [])).toBeUndefined();
  });
});

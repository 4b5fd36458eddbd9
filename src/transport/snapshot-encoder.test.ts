import { describe, expect, it } from 'vitest';
import type { SceneView, SnapshotMessage } from '@onair/protocol';
import { SnapshotEncoder } from './snapshot-encoder.js';

const scene = (id: string, layer: number): SceneView => ({
  id,
  name: `Scene ${id}`,
  definition: { version: 1, layer, inputs: [], elements: [] } as unknown as SceneView['definition'],
});

function snapshotOf(scenes: SceneView[], frame = 1): SnapshotMessage {
  return {
    type: 'snapshot',
    channelId: 'ch_1',
    frame,
    serverTime: 1_795_466_294_063 + frame,
    fps: 60,
    width: 1920,
    height: 1080,
    program: [{ sceneId: 'sc_a', layer: 10, itemId: null, values: {}, since: '2026-11-23T20:38:13.917Z' }],
    preview: [],
    scenes,
    inputs: { home: 'HOME "quoted" ✓', scoreA: 1 },
    clocks: { gameClock: { running: true, ms: 720_000, at: 1_795_466_293_967 } },
  };
}

const decode = (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as unknown;

describe('SnapshotEncoder', () => {
  it('encodes the same JSON as JSON.stringify, with or without scenes', () => {
    const encoder = new SnapshotEncoder();
    for (const scenes of [[], [scene('sc_a', 10), scene('sc_b', 20)]]) {
      const snap = snapshotOf(scenes);
      expect(decode(encoder.encode(snap))).toEqual(JSON.parse(JSON.stringify(snap)));
    }
  });

  it('reuses the scenes while they are the same objects and follows every change', () => {
    const encoder = new SnapshotEncoder();
    const a = scene('sc_a', 10);
    const b = scene('sc_b', 20);
    const first = encoder.encode(snapshotOf([a, b], 1));
    // Same scene objects, newer frame: the frame changes, the scenes do not.
    const second = decode(encoder.encode(snapshotOf([{ ...a }, { ...b }], 2))) as SnapshotMessage;
    expect(second.frame).toBe(2);
    expect(second.scenes).toEqual((decode(first) as SnapshotMessage).scenes);

    const changed = { ...b, definition: { ...b.definition, layer: 30 } };
    const renamed = { ...a, name: 'Renamed' };
    for (const scenes of [[a, changed], [renamed, b], [b, a], [a], [a, b, scene('sc_c', 40)]]) {
      const out = decode(encoder.encode(snapshotOf(scenes, 3))) as SnapshotMessage;
      expect(out.scenes).toEqual(JSON.parse(JSON.stringify(scenes)));
    }
  });

  it('forgets a channel', () => {
    const encoder = new SnapshotEncoder();
    encoder.encode(snapshotOf([scene('sc_a', 10)]));
    expect(encoder.size()).toBe(1);
    encoder.forget('ch_1');
    expect(encoder.size()).toBe(0);
  });
});

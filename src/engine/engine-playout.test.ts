/**
 * Layered playout (docs/api.md, "Playout"): each bus holds one scene per layer; cue, take, cut and clear
 * on several layers at once, with the frames renderers get and the events each op fires.
 */
import { describe, expect, it } from 'vitest';
import type { FrameMessage } from '@onair/protocol';
import { API_BY, API_EVENT, channelRecord, emptyLive, engineHarness, sceneRecord } from './engine.fixtures.js';
import { frameRate, frameStart } from './frame-rate.js';
import type { EngineEvent } from './events.js';

const CH = 'ch_a';
const number = (name: string) => ({ name, type: 'number' as const, label: name, default: 0 });
const flash = (name: string) => ({ name, animation: 'flash' as const });

/** Two full-frame scenes on layer 0, a strap on layer 2 and a corner bug on layer 5. */
const SCENES = [
  sceneRecord('sc_board', CH, [number('score')], { triggers: [flash('goal')] }),
  sceneRecord('sc_alt', CH, [number('score')]),
  sceneRecord('sc_strap', CH, [], { layer: 2 }),
  sceneRecord('sc_bug', CH, [], { layer: 5, triggers: [flash('goal'), flash('sponsor')] }),
];

function setup() {
  return engineHarness([{ channel: channelRecord(CH), scenes: SCENES, live: emptyLive(7) }]);
}

type Harness = ReturnType<typeof setup>;

/** The time of the tick that applied frame `frame`: the start of that frame. */
const tickTime = (frame: number) => Math.round(frameStart(frameRate(60), frame));
const types = (events: EngineEvent[]) => events.map((e) => `${e.type}:${String(e.data.sceneId)}`);

describe('cue', () => {
  it('cues each scene on its own layer; a second cue on a layer replaces the first', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_bug' });
    await h.run(CH, { kind: 'cue', sceneId: 'sc_board' });
    await h.run(CH, { kind: 'cue', sceneId: 'sc_alt' });
    expect(h.engine.state(CH).preview).toEqual([
      { sceneId: 'sc_alt', layer: 0, itemId: null, values: {} },
      { sceneId: 'sc_bug', layer: 5, itemId: null, values: {} },
    ]);
    expect(h.frames.at(-1)!.preview).toEqual(h.engine.state(CH).preview);
    expect(h.frames.at(-1)).not.toHaveProperty('program');
    expect(h.events.map((e) => e.data)).toEqual([
      { sceneId: 'sc_bug', bus: 'preview', layer: 5, itemId: null, ...API_EVENT },
      { sceneId: 'sc_board', bus: 'preview', layer: 0, itemId: null, ...API_EVENT },
      { sceneId: 'sc_alt', bus: 'preview', layer: 0, itemId: null, ...API_EVENT },
    ]);
  });

  it('cueing what is already cued is answered with a frame, but sends nothing and fires nothing', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_bug' });
    const again = await h.run(CH, { kind: 'cue', sceneId: 'sc_bug' });
    expect(again.frame).toBeGreaterThan(0);
    expect(h.frames).toHaveLength(1);
    expect(h.events).toHaveLength(1);
  });

  it('refuses a scene that is not in the channel with not_found', async () => {
    expect((await setup().refusal(CH, { kind: 'cue', sceneId: 'sc_nope' })).code).toBe('not_found');
  });
});

describe('take', () => {
  it('takes every cued layer to air in one frame and empties preview', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_bug' });
    await h.run(CH, { kind: 'cue', sceneId: 'sc_board' });
    h.events.length = 0;
    const { frame } = await h.run(CH, { kind: 'take' });
    const program = [
      { sceneId: 'sc_board', layer: 0, itemId: null, values: {}, since: new Date(tickTime(frame)).toISOString() },
      { sceneId: 'sc_bug', layer: 5, itemId: null, values: {}, since: new Date(tickTime(frame)).toISOString() },
    ];
    expect(h.engine.state(CH)).toMatchObject({ program, preview: [] });
    expect(h.frames.at(-1)).toMatchObject({ frame, program, preview: [] });
    // A take animates: no layer is a cut.
    expect(h.frames.at(-1)).not.toHaveProperty('cutLayers');
    expect(h.events.map((e) => e.data)).toEqual([
      { sceneId: 'sc_board', bus: 'program', layer: 0, itemId: null, ...API_EVENT },
      { sceneId: 'sc_board', previousSceneId: null, layer: 0, itemId: null, ...API_EVENT },
      { sceneId: 'sc_bug', bus: 'program', layer: 5, itemId: null, ...API_EVENT },
      { sceneId: 'sc_bug', previousSceneId: null, layer: 5, itemId: null, ...API_EVENT },
    ]);
    expect(h.events.map((e) => e.type)).toEqual([
      'channel.scene_loaded',
      'channel.played',
      'channel.scene_loaded',
      'channel.played',
    ]);
  });

  it('takes one layer only; the others stay cued', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_bug' });
    await h.run(CH, { kind: 'cue', sceneId: 'sc_strap' });
    await h.run(CH, { kind: 'take', layer: 2 });
    expect(h.engine.state(CH).program.map((e) => e.sceneId)).toEqual(['sc_strap']);
    expect(h.engine.state(CH).preview).toEqual([{ sceneId: 'sc_bug', layer: 5, itemId: null, values: {} }]);
    expect(h.frames.at(-1)).toMatchObject({ program: [{ sceneId: 'sc_strap', layer: 2 }], preview: [{ layer: 5 }] });
  });

  it('refuses preview_empty with nothing cued, or nothing on the layer asked for', async () => {
    const h = setup();
    expect((await h.refusal(CH, { kind: 'take' })).code).toBe('preview_empty');
    await h.run(CH, { kind: 'cue', sceneId: 'sc_bug' });
    const err = await h.refusal(CH, { kind: 'take', layer: 2 });
    expect(err.code).toBe('preview_empty');
    expect(err.message).toMatch(/layer 2/);
    expect(h.engine.state(CH).program).toEqual([]);
  });

  it('replaces what was on air on that layer, naming it as the previous scene', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_alt' });
    await h.run(CH, { kind: 'cut', sceneId: 'sc_bug' });
    await h.run(CH, { kind: 'cue', sceneId: 'sc_board' });
    h.events.length = 0;
    await h.run(CH, { kind: 'take' });
    expect(h.engine.state(CH).program.map((e) => e.sceneId)).toEqual(['sc_board', 'sc_bug']);
    expect(h.events.find((e) => e.type === 'channel.played')!.data).toMatchObject({
      sceneId: 'sc_board',
      previousSceneId: 'sc_alt',
      layer: 0,
    });
  });
});

describe('cut (program)', () => {
  it('cuts a scene to air on its layer alone, listing the layer as a cut; preview stays', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_alt' });
    await h.run(CH, { kind: 'cut', sceneId: 'sc_bug' });
    const { frame } = await h.run(CH, { kind: 'cut', sceneId: 'sc_board' });
    const last = h.frames.at(-1)!;
    expect(last).toMatchObject({ frame, cutLayers: [0] });
    expect(last.program!.map((e) => [e.sceneId, e.layer])).toEqual([
      ['sc_board', 0],
      ['sc_bug', 5],
    ]);
    expect(h.engine.state(CH).preview).toEqual([{ sceneId: 'sc_alt', layer: 0, itemId: null, values: {} }]);
    expect(types(h.events.slice(-2))).toEqual(['channel.scene_loaded:sc_board', 'channel.played:sc_board']);
  });

  it('in one tick, the layers cut are listed and a layer taken after a cut is not', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_alt' });
    const ops = [
      h.engine.submit(CH, { kind: 'cut', sceneId: 'sc_board', by: API_BY }),
      h.engine.submit(CH, { kind: 'cut', sceneId: 'sc_bug', by: API_BY }),
      h.engine.submit(CH, { kind: 'take', by: API_BY }),
    ];
    await h.advance();
    await Promise.all(ops);
    const last = h.frames.at(-1)!;
    expect(last.cutLayers).toEqual([5]);
    expect(last.program!.map((e) => e.sceneId)).toEqual(['sc_alt', 'sc_bug']);
    expect(h.frames).toHaveLength(2);
  });
});

describe('clear', () => {
  async function allOnAir(h: Harness): Promise<void> {
    for (const sceneId of ['sc_board', 'sc_strap', 'sc_bug']) await h.run(CH, { kind: 'cut', sceneId });
    h.events.length = 0;
  }

  it('clears one layer', async () => {
    const h = setup();
    await allOnAir(h);
    await h.run(CH, { kind: 'clear', layer: 2 });
    expect(h.engine.state(CH).program.map((e) => e.layer)).toEqual([0, 5]);
    expect(h.events.map((e) => [e.type, e.data])).toEqual([
      ['channel.cleared', { sceneId: 'sc_strap', layer: 2, itemId: null, ...API_EVENT }],
    ]);
    // Taken off air with its out transition: not a cut.
    expect(h.frames.at(-1)).not.toHaveProperty('cutLayers');
  });

  it('clears one scene', async () => {
    const h = setup();
    await allOnAir(h);
    await h.run(CH, { kind: 'clear', sceneId: 'sc_bug' });
    expect(h.engine.state(CH).program.map((e) => e.sceneId)).toEqual(['sc_board', 'sc_strap']);
    expect(h.events.map((e) => e.data)).toEqual([{ sceneId: 'sc_bug', layer: 5, itemId: null, ...API_EVENT }]);
  });

  it('clears everything, one event per scene, in one frame; preview stays', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_alt' });
    await allOnAir(h);
    const frames = h.frames.length;
    await h.run(CH, { kind: 'clear' });
    expect(h.engine.state(CH)).toMatchObject({ program: [], preview: [{ sceneId: 'sc_alt' }] });
    expect(h.frames).toHaveLength(frames + 1);
    expect(h.frames.at(-1)!.program).toEqual([]);
    expect(types(h.events)).toEqual(['channel.cleared:sc_board', 'channel.cleared:sc_strap', 'channel.cleared:sc_bug']);
  });

  it('a clear that finds nothing on air is answered, sends nothing and fires nothing', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_board' });
    h.events.length = 0;
    const frames = h.frames.length;
    for (const op of [{ layer: 3 }, { sceneId: 'sc_bug' }, { layer: 0, sceneId: 'sc_alt' }]) {
      expect((await h.run(CH, { kind: 'clear', ...op })).frame).toBeGreaterThan(0);
    }
    expect(h.frames).toHaveLength(frames);
    expect(h.events).toEqual([]);
    expect(h.engine.state(CH).program.map((e) => e.sceneId)).toEqual(['sc_board']);
  });

  it('refuses to clear a scene that is not in the channel with not_found', async () => {
    expect((await setup().refusal(CH, { kind: 'clear', sceneId: 'sc_nope' })).code).toBe('not_found');
  });
});

describe('triggers', () => {
  it('fires for every scene on program or preview that declares it, once per scene, in one frame', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_board' });
    await h.run(CH, { kind: 'cue', sceneId: 'sc_bug' });
    await h.run(CH, { kind: 'cue', sceneId: 'sc_alt' });
    h.events.length = 0;
    const { frame } = await h.run(CH, { kind: 'trigger', name: 'goal' });
    const at = tickTime(frame);
    const last: FrameMessage = h.frames.at(-1)!;
    expect(last.frame).toBe(frame);
    expect(last.triggers).toEqual([
      { name: 'goal', sceneId: 'sc_board', at },
      { name: 'goal', sceneId: 'sc_bug', at },
    ]);
    expect(last).not.toHaveProperty('program');
    expect(h.events.map((e) => [e.type, e.data])).toEqual([
      ['channel.trigger_fired', { sceneId: 'sc_board', trigger: 'goal', ...API_EVENT }],
      ['channel.trigger_fired', { sceneId: 'sc_bug', trigger: 'goal', ...API_EVENT }],
    ]);
  });

  it('a trigger no scene on air declares is unknown_trigger (404), naming the closest', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_bug' });
    const err = await h.refusal(CH, { kind: 'trigger', name: 'sponsr' });
    expect([err.code, err.status]).toEqual(['unknown_trigger', 404]);
    expect(err.extra).toEqual({ trigger: 'sponsr', closest: 'sponsor' });
    // Declared, but by a scene that is neither on air nor cued.
    await h.run(CH, { kind: 'clear' });
    expect((await h.refusal(CH, { kind: 'trigger', name: 'goal' })).code).toBe('unknown_trigger');
  });
});

describe('views', () => {
  it('state and snapshot list the buses by layer', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_bug' });
    await h.run(CH, { kind: 'cut', sceneId: 'sc_board' });
    await h.run(CH, { kind: 'cue', sceneId: 'sc_strap' });
    const snap = h.engine.snapshot(CH);
    expect(snap.program.map((e) => e.layer)).toEqual([0, 5]);
    expect(snap.preview).toEqual([{ sceneId: 'sc_strap', layer: 2, itemId: null, values: {} }]);
    expect(h.engine.state(CH).program).toEqual(snap.program);
    expect(h.engine.sceneBuses(CH, 'sc_board')).toEqual([{ bus: 'program', layer: 0 }]);
    expect(h.engine.sceneBuses(CH, 'sc_strap')).toEqual([{ bus: 'preview', layer: 2 }]);
    expect(h.engine.sceneBuses(CH, 'sc_alt')).toEqual([]);
  });
});

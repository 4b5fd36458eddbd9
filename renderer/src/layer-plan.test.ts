import { describe, expect, it } from 'vitest';
import { planLayer, sameScene, type LayerInput } from './layer-plan.js';
import { sceneView } from './test-scenes.js';

const a = sceneView('a');
const b = sceneView('b');

function plan(over: Partial<LayerInput>) {
  return planLayer({ drawn: null, wanted: null, change: null, fontsReady: true, bus: 'program', ...over });
}

describe('layer plan', () => {
  it('keeps a layer drawn as wanted, including a fresh copy of the same scene from a snapshot', () => {
    expect(plan({})).toEqual({ kind: 'keep' });
    expect(plan({ drawn: a, wanted: a })).toEqual({ kind: 'keep' });
    expect(plan({ drawn: a, wanted: JSON.parse(JSON.stringify(a)) as typeof a })).toEqual({ kind: 'keep' });
  });

  it('redraws a scene whose definition changed without a transition', () => {
    const changed = sceneView('a', { layer: 5 });
    expect(plan({ drawn: a, wanted: changed })).toEqual({ kind: 'rebuild' });
  });

  it('gives way to a new instance of the drawn scene a frame put on program, and draws one in place on preview', () => {
    const change = { layer: 0, mode: 'animate' as const, at: 7 };
    expect(plan({ drawn: a, wanted: a, change })).toEqual({ kind: 'change', mode: 'animate', at: 7 });
    expect(plan({ drawn: a, wanted: sceneView('a'), change: { ...change, mode: 'cut' } })).toMatchObject({
      kind: 'change',
      mode: 'cut',
    });
    // A preview page hears of program's changes too: they do not rebuild what it draws.
    expect(plan({ drawn: a, wanted: a, change, bus: 'preview' })).toEqual({ kind: 'keep' });
  });

  it('animates a change a frame made, cuts one listed as a cut', () => {
    expect(plan({ drawn: a, wanted: b, change: { layer: 0, mode: 'animate', at: 7 } })).toEqual({
      kind: 'change',
      mode: 'animate',
      at: 7,
    });
    expect(plan({ drawn: a, wanted: null, change: { layer: 0, mode: 'animate', at: 7 } })).toMatchObject({
      mode: 'animate',
    });
    expect(plan({ drawn: a, wanted: b, change: { layer: 0, mode: 'cut', at: 7 } })).toMatchObject({ mode: 'cut' });
  });

  it('draws at once what no frame changed: a snapshot, a late scene definition', () => {
    expect(plan({ drawn: null, wanted: a })).toEqual({ kind: 'change', mode: 'cut', at: 0 });
    expect(plan({ drawn: a, wanted: b })).toEqual({ kind: 'change', mode: 'cut', at: 0 });
  });

  it('cuts on the preview bus', () => {
    const change = { layer: 0, mode: 'animate' as const, at: 7 };
    expect(plan({ drawn: a, wanted: b, change, bus: 'preview' })).toMatchObject({ mode: 'cut' });
  });

  it('waits for the fonts of a scene it has not drawn yet, and never for a drawn one', () => {
    expect(plan({ drawn: a, wanted: b, fontsReady: false })).toEqual({ kind: 'wait' });
    expect(plan({ drawn: a, wanted: sceneView('a', { layer: 3 }), fontsReady: false })).toEqual({ kind: 'wait' });
    expect(plan({ drawn: a, wanted: a, fontsReady: false })).toEqual({ kind: 'keep' });
    expect(plan({ drawn: a, wanted: null, fontsReady: false })).toMatchObject({ kind: 'change' });
  });

  it('compares scenes by id and definition', () => {
    expect(sameScene(a, sceneView('a'))).toBe(true);
    expect(sameScene(a, sceneView('b'))).toBe(false);
  });
});

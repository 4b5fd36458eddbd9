import type { SceneView } from '@onair/protocol';
import { describe, expect, it } from 'vitest';
import { changedInputs, defaultValues, standingClocks, withData } from './ograf-values.js';

const SHA = 'a'.repeat(64);
const scene: SceneView = {
  id: 'sc_1',
  name: 'Card',
  definition: {
    version: 1,
    layer: 1,
    inputs: [
      { name: 'title', type: 'text', label: 'Title', default: 'Hello' },
      { name: 'logo', type: 'asset', label: 'Logo', default: `/assets/${SHA}.png` },
      { name: 'photo', type: 'image', label: 'Photo', default: null },
      { name: 'clock', type: 'clock', label: 'Clock', default: 60_000 },
    ],
    elements: [],
    transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
    triggers: [],
  },
};
const BASE = 'http://host/pkg/';

describe('an exported graphic’s values', () => {
  it('starts from the defaults and takes what data gives for known inputs only', () => {
    const values = withData(scene, defaultValues(scene), { title: 'Hi', other: 1 }, BASE);
    expect(values).toEqual({ title: 'Hi', logo: `/assets/${SHA}.png`, photo: null, clock: 60_000 });
  });

  it('reads file paths from the package: assets/ as the library path, others beside the module', () => {
    const values = withData(scene, defaultValues(scene), { logo: `assets/${SHA}.png`, photo: 'img/a.png' }, BASE);
    expect(values.logo).toBe(`/assets/${SHA}.png`);
    expect(values.photo).toBe('http://host/pkg/img/a.png');
    expect(withData(scene, values, { photo: 'https://cdn.test/b.png' }, BASE).photo).toBe('https://cdn.test/b.png');
  });

  it('puts an input back to its default on null, and ignores data that is not an object', () => {
    const changed = withData(scene, defaultValues(scene), { title: 'Hi' }, BASE);
    expect(withData(scene, changed, { title: null }, BASE).title).toBe('Hello');
    expect(withData(scene, changed, 'nope', BASE)).toBe(changed);
  });

  it('names the inputs an update changed, and stands clocks still at their value', () => {
    const before = defaultValues(scene);
    const after = withData(scene, before, { title: 'Hi', clock: 5_000 }, BASE);
    expect([...changedInputs(before, after)].sort()).toEqual(['clock', 'title']);
    expect(standingClocks(scene, after, 7)).toEqual({ clock: { running: false, ms: 5_000, at: 7 } });
  });
});

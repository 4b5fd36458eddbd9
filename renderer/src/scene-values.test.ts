import { describe, expect, it } from 'vitest';
import type { SceneView } from '../../src/protocol/index.js';
import { createSceneValues, type ValueSources } from './scene-values.js';

const scene: SceneView = {
  id: 'sc',
  name: 'Scoreboard',
  definition: {
    inputs: [
      { name: 'home', type: 'text', label: 'Home', default: '' },
      { name: 'score', type: 'number', label: 'Score', default: 0 },
      { name: 'show', type: 'boolean', label: 'Show', default: false },
      { name: 'timer', type: 'clock', label: 'Timer', default: null },
    ],
    triggers: [],
    layers: [],
  },
};

function sources(over: Partial<ValueSources> = {}): ValueSources {
  return {
    inputs: { home: 'Lions', score: 3, show: true, timer: null },
    overrides: {},
    clocks: { timer: { running: true, ms: 61_000, at: 10_000 } },
    serverNow: 10_400,
    ...over,
  };
}

describe('scene values', () => {
  it('formats inputs and blanks unknown or inherited names', () => {
    const values = createSceneValues(scene, sources());
    expect(values.text('home')).toBe('Lions');
    expect(values.text('score')).toBe('3');
    expect(values.text('show')).toBe('true');
    expect(values.text('nope')).toBe('');
    expect(values.text('constructor')).toBe('');
  });

  it('shows a clock input from its anchor and asks to wake at the next second', () => {
    const values = createSceneValues(scene, sources());
    expect(values.nextTickMs()).toBeNull();
    expect(values.text('timer')).toBe('1:01');
    expect(values.nextTickMs()).toBe(600 + 15);
  });

  it('needs no timer for a stopped clock', () => {
    const values = createSceneValues(scene, sources({ clocks: { timer: { running: false, ms: 5_000, at: 0 } } }));
    expect(values.text('timer')).toBe('0:05');
    expect(values.nextTickMs()).toBeNull();
  });

  it('lets page overrides win over channel inputs and clocks', () => {
    const values = createSceneValues(scene, sources({ overrides: { home: 'Tigers', timer: 'HALF', show: 'false' } }));
    expect(values.text('home')).toBe('Tigers');
    expect(values.text('timer')).toBe('HALF');
    expect(values.isTrue('show')).toBe(false);
  });

  it('treats only true (or the string an XML update sends) as true', () => {
    const values = createSceneValues(scene, sources({ inputs: { show: true, score: 1, home: 'true' } }));
    expect(values.isTrue('show')).toBe(true);
    expect(values.isTrue('score')).toBe(false);
    expect(values.isTrue('home')).toBe(true);
    expect(values.isTrue('missing')).toBe(false);
  });
});

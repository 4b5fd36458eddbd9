import { describe, expect, it } from 'vitest';
import { isCurrentScene, upgradeScene } from './upgrade-scene.js';

const box = { x: 10, y: 20, width: 300, height: 60 };

describe('upgradeScene: old-shape definitions to format v1', () => {
  it('writes the format v1 frame: version, layer 0, cut transitions, triggers as flashes', () => {
    expect(upgradeScene({ inputs: [], triggers: ['in', 'goal'], layers: [] })).toEqual({
      version: 1,
      layer: 0,
      inputs: [],
      elements: [],
      transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
      triggers: [
        { name: 'in', animation: 'flash', durationMs: 600 },
        { name: 'goal', animation: 'flash', durationMs: 600 },
      ],
    });
  });

  it('rect becomes a box filled with its colour, keeping radius, opacity and visibleIf', () => {
    const { elements } = upgradeScene({
      inputs: [],
      layers: [{ type: 'rect', ...box, color: '{accent}', radius: 12, opacity: 0.5, visibleIf: 'show' }],
    });
    expect(elements).toEqual([{ type: 'box', ...box, fill: '{accent}', radius: 12, opacity: 0.5, visibleIf: 'show' }]);
  });

  it('text keeps its style; a bundled font stays, any other is dropped; a background becomes a box before it', () => {
    const text = {
      type: 'text' as const,
      ...box,
      text: '{name}',
      fontSize: 40,
      fontWeight: 700,
      align: 'center' as const,
    };
    const { elements } = upgradeScene({
      inputs: [],
      layers: [
        { ...text, color: '#fff', fontFamily: 'Oswald' },
        { ...text, fontFamily: 'Helvetica Neue', background: '#000000aa', visibleIf: 'live' },
      ],
    });
    expect(elements).toEqual([
      { ...text, color: '#fff', fontFamily: 'Oswald' },
      { type: 'box', ...box, fill: '#000000aa', visibleIf: 'live' },
      { ...text, visibleIf: 'live' },
    ]);
  });

  it('image keeps its source and fit', () => {
    const layers = [{ type: 'image' as const, ...box, src: '{logo}', fit: 'cover' as const }];
    expect(upgradeScene({ inputs: [], layers }).elements).toEqual([
      { type: 'image', ...box, src: '{logo}', fit: 'cover' },
    ]);
  });

  it('a clock input gets a number default, counting up, never stopping; other inputs are kept as they were', () => {
    const inputs = [
      { name: 'score', type: 'number' as const, label: 'Score', default: 0 },
      { name: 'timer', type: 'clock' as const, label: 'Timer', default: null },
    ];
    expect(upgradeScene({ inputs }).inputs).toEqual([
      inputs[0],
      { name: 'timer', type: 'clock', label: 'Timer', default: 0, direction: 'up', stopAt: null },
    ]);
  });

  it('tells a format v1 definition from an old one', () => {
    expect(isCurrentScene(upgradeScene({ inputs: [] }))).toBe(true);
    expect(isCurrentScene({ inputs: [], triggers: [], layers: [] })).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import type { SceneView } from '@onair/protocol';
import { createSceneValues, type ValueSources } from './scene-values.js';
import { sceneView } from './test-scenes.js';

const scene: SceneView = sceneView('sc', {
  inputs: [
    { name: 'home', type: 'text', label: 'Home', default: '' },
    { name: 'score', type: 'number', label: 'Score', default: 0 },
    { name: 'show', type: 'boolean', label: 'Show', default: false },
    { name: 'tint', type: 'color', label: 'Tint', default: '#ff0000' },
    { name: 'timer', type: 'clock', label: 'Timer', default: 0 },
    { name: 'countdown', type: 'clock', label: 'Countdown', default: 60_000, direction: 'down' },
  ],
});

function sources(over: Partial<ValueSources> = {}): ValueSources {
  return {
    inputs: { home: 'Lions', score: 3, show: true, tint: '#00ff00' },
    overrides: {},
    clocks: {
      timer: { running: true, ms: 61_000, at: 10_000 },
      countdown: { running: true, ms: 10_000, at: 10_000 },
    },
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
    expect(values.fill('{home} {score}{nope}')).toBe('Lions 3');
  });

  it('shows a clock from its server anchor, in its own direction, and says it is moving', () => {
    const values = createSceneValues(scene, sources());
    expect(values.moving()).toBe(false);
    expect(values.text('timer')).toBe('1:01');
    expect(values.moving()).toBe(true);
    expect(values.clock('countdown', 'm:ss')).toBe('0:10');
    expect(values.clock('countdown', 'm:ss.t')).toBe('0:09.6');
    expect(values.clock('missing', 'mm:ss')).toBe('00:00');
  });

  it('shows a running count-up clock as m:ss when its element gives no format: tenths only when asked', () => {
    const early = { timer: { running: true, ms: 9_000, at: 10_000 } };
    const values = createSceneValues(scene, sources({ clocks: early }));
    expect(values.clock('timer', undefined)).toBe('0:09');
    expect(values.clock('timer', 'm:ss.t')).toBe('0:09.4');
    expect(values.moving()).toBe(true);
  });

  it("shows a clock's period name with format period, and stops it at its period's stop", () => {
    const periods = [
      { name: '1st half', startAt: 0, stopAt: 2_700_000 },
      { name: '2nd half', startAt: 2_700_000, stopAt: 5_400_000 },
    ];
    const match = sceneView('m', { inputs: [{ name: 'match', type: 'clock', label: 'M', default: 0, periods }] });
    const first = createSceneValues(match, sources({ clocks: {}, serverNow: 0 }));
    expect(first.clock('match', 'period')).toBe('1st half');
    const at = (state: object, serverNow: number) =>
      createSceneValues(match, sources({ clocks: { match: { at: 0, ...state } as never }, serverNow }));
    expect(at({ running: true, ms: 0 }, 3_000_000).clock('match', 'period')).toBe('1st half');
    expect(at({ running: true, ms: 0 }, 3_000_000).clock('match', undefined)).toBe('45:00');
    const second = at({ running: true, ms: 2_700_000, period: 1 }, 600_000);
    expect(second.clock('match', 'period')).toBe('2nd half');
    expect(second.clock('match', undefined)).toBe('55:00');
    expect(at({ running: true, ms: 2_700_000, period: 1 }, 9_000_000).clock('match', undefined)).toBe('90:00');
  });

  it('does not call a stopped clock, or one that reached its stop, moving', () => {
    const stopped = createSceneValues(scene, sources({ clocks: { timer: { running: false, ms: 5_000, at: 0 } } }));
    expect(stopped.text('timer')).toBe('0:05');
    expect(stopped.moving()).toBe(false);
    const done = createSceneValues(scene, sources({ serverNow: 30_000 }));
    expect(done.clock('countdown', 'm:ss')).toBe('0:00');
    expect(done.moving()).toBe(false);
  });

  it('resolves colours: literal hex, {input}, and transparent for anything else', () => {
    const values = createSceneValues(scene, sources());
    expect(values.color('#112233')).toBe('#112233');
    expect(values.color('#1234')).toBe('#1234');
    expect(values.color('{tint}')).toBe('#00ff00');
    expect(values.color('{home}')).toBe('transparent');
    expect(values.color('red; background: url(x)')).toBe('transparent');
    expect(values.color(undefined)).toBe('transparent');
  });

  it('lets page overrides win over channel inputs and clocks', () => {
    const values = createSceneValues(scene, sources({ overrides: { home: 'Tigers', timer: 'HALF', show: 'false' } }));
    expect(values.text('home')).toBe('Tigers');
    expect(values.text('timer')).toBe('HALF');
    expect(values.clock('timer', 'm:ss')).toBe('HALF');
    expect(values.isTrue('show')).toBe(false);
  });

  it("draws an instance's own values before the channel's, and the channel's for what it does not carry", () => {
    const entry = { values: { home: 'Bears', show: false, tint: '#0000ff' } };
    const values = createSceneValues(scene, sources({ entry }));
    expect(values.fill('{home} {score}')).toBe('Bears 3');
    expect(values.isTrue('show')).toBe(false);
    expect(values.color('{tint}')).toBe('#0000ff');
    expect(createSceneValues(scene, sources({ entry: { values: {} } })).text('home')).toBe('Lions');
    expect(createSceneValues(scene, sources({ entry: { values: { home: null } } })).text('home')).toBe('Lions');
  });

  it("lets page overrides win over an instance's own values too", () => {
    const values = createSceneValues(
      scene,
      sources({ entry: { values: { home: 'Bears' } }, overrides: { home: 'Cubs' } }),
    );
    expect(values.text('home')).toBe('Cubs');
  });

  it('treats only true (or the string an XML update sends) as true', () => {
    const values = createSceneValues(scene, sources({ inputs: { show: true, score: 1, home: 'true' } }));
    expect(values.isTrue('show')).toBe(true);
    expect(values.isTrue('score')).toBe(false);
    expect(values.isTrue('home')).toBe(true);
    expect(values.isTrue('missing')).toBe(false);
  });

  it('meets a visibleWhen condition only with an equal (or, notEquals, a different) value, or a number at least the one given', () => {
    const values = createSceneValues(scene, sources({ inputs: { score: 3, home: 'home', show: false } }));
    expect(values.meets({ input: 'score', atLeast: 3 })).toBe(true);
    expect(values.meets({ input: 'score', atLeast: 4 })).toBe(false);
    expect(values.meets({ input: 'home', atLeast: 0 })).toBe(false);
    expect(values.meets({ input: 'home', equals: 'home' })).toBe(true);
    expect(values.meets({ input: 'home', equals: 'away' })).toBe(false);
    expect(values.meets({ input: 'show', equals: false })).toBe(true);
    expect(values.meets({ input: 'missing', atLeast: 0 })).toBe(false);
    expect(values.meets({ input: 'home', notEquals: '' })).toBe(true);
    expect(values.meets({ input: 'home', notEquals: 'home' })).toBe(false);
    expect(values.meets({ input: 'missing', notEquals: '' })).toBe(true);
    const xml = createSceneValues(scene, sources({ overrides: { score: '5', show: 'true' } }));
    expect(xml.meets({ input: 'score', atLeast: 5 })).toBe(true);
    expect(xml.meets({ input: 'show', equals: true })).toBe(true);
    expect(xml.meets({ input: 'show', notEquals: true })).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { normaliseDefinition, SceneDefinitionIn } from './definition-schema.js';
import { box, inputs, paths, problems, text, withElements } from './definition-schema.fixtures.js';

describe('SceneDefinitionIn: what it accepts', () => {
  it('accepts an empty definition and stores it complete', () => {
    const parsed = SceneDefinitionIn.parse({});
    expect(normaliseDefinition(parsed)).toEqual({
      version: 1,
      layer: 0,
      inputs: [],
      elements: [],
      transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
      triggers: [],
    });
  });

  it('accepts every element type, nested in groups, with every field', () => {
    const all = {
      version: 1,
      layer: 42,
      inputs,
      elements: [
        {
          type: 'box',
          ...box,
          name: 'panel',
          opacity: 0.9,
          rotation: -3,
          scale: 1.1,
          visibleIf: 'show',
          delayMs: 120,
          fill: {
            gradient: {
              angle: 90,
              stops: [
                { at: 0, color: '{accent}' },
                { at: 1, color: '#000a' },
              ],
            },
          },
          border: { width: 2, color: '#ffffff' },
          radius: 8,
          shadow: { x: 0, y: 6, blur: 18, color: '#00000080' },
        },
        text({
          text: '{home} {scoreA}',
          fontFamily: 'Barlow Condensed',
          fontWeight: 700,
          color: '{accent}',
          align: 'center',
          letterSpacing: 1.5,
          uppercase: true,
          shrink: false,
        }),
        { type: 'image', ...box, src: '{logo}', fit: 'cover' },
        { type: 'image', ...box, src: 'https://example.com/logo.png' },
        { type: 'clock', ...box, clock: 'game', format: 'm:ss.t', fontSize: 48, fontFamily: 'Roboto Mono' },
        {
          type: 'group',
          ...box,
          name: 'outer',
          children: [
            { type: 'group', ...box, children: [text({ name: 'deep' }), { type: 'box', ...box, fill: '#fff' }] },
          ],
        },
      ],
      transitions: {
        in: { type: 'slide', from: 'top', durationMs: 400, easing: 'ease-out' },
        out: { type: 'wipe', from: 'right', durationMs: 300 },
      },
      triggers: [
        { name: 'flash', animation: 'flash', targets: ['panel', 'deep'], on: 'scoreA', durationMs: 800 },
        {
          name: 'bump',
          animation: {
            keyframes: [
              { at: 0, scale: 1 },
              { at: 0.5, scale: 1.2, dy: -4, brightness: 1.4 },
            ],
          },
        },
      ],
    };
    expect(problems(all)).toEqual([]);
  });

  it('fills the defaults of inputs, transitions and triggers', () => {
    const def = normaliseDefinition(
      SceneDefinitionIn.parse({
        inputs: [
          { name: 'up', type: 'clock' },
          { name: 'down', type: 'clock', direction: 'down', default: 60_000 },
          { name: 'free', type: 'clock', direction: 'down', stopAt: null, default: null },
          { name: 'title', type: 'text', label: 'Title' },
          { name: 'logo', type: 'image' },
        ],
        transitions: { in: { type: 'slide' }, out: { type: 'fade', durationMs: 200 } },
        triggers: [{ name: 'hit', animation: 'pulse' }],
      }),
    );
    expect(def.inputs).toEqual([
      { name: 'up', type: 'clock', label: 'up', default: 0, direction: 'up', stopAt: null },
      { name: 'down', type: 'clock', label: 'down', default: 60_000, direction: 'down', stopAt: 0 },
      { name: 'free', type: 'clock', label: 'free', default: 0, direction: 'down', stopAt: null },
      { name: 'title', type: 'text', label: 'Title', default: '' },
      { name: 'logo', type: 'image', label: 'logo', default: null },
    ]);
    expect(def.transitions).toEqual({
      in: { type: 'slide', from: 'left', durationMs: 500, easing: 'ease-out' },
      out: { type: 'fade', durationMs: 200, easing: 'ease-in' },
    });
    expect(def.triggers).toEqual([{ name: 'hit', animation: 'pulse', durationMs: 600 }]);
  });

  it('keeps an input scope as given: absent (channel), channel or item', () => {
    const def = normaliseDefinition(
      SceneDefinitionIn.parse({
        inputs: [
          { name: 'score', type: 'number' },
          { name: 'home', type: 'text', scope: 'channel' },
          { name: 'name', type: 'text', scope: 'item' },
        ],
      }),
    );
    expect(def.inputs).toEqual([
      { name: 'score', type: 'number', label: 'score', default: 0 },
      { name: 'home', type: 'text', label: 'home', scope: 'channel', default: '' },
      { name: 'name', type: 'text', label: 'name', scope: 'item', default: '' },
    ]);
  });

  it('accepts groups nested 8 deep', () => {
    let el: object = text();
    for (let i = 0; i < 8; i++) el = { type: 'group', ...box, children: [el] };
    expect(problems({ elements: [el] })).toEqual([]);
  });
});

describe('SceneDefinitionIn: each problem at its exact path', () => {
  it.each([
    [
      'a font size deep in a group',
      [{ type: 'group', ...box, children: [text({ fontSize: 1001 })] }],
      'elements.0.children.0.fontSize',
    ],
    [
      'an unknown field deep in a group',
      [{ type: 'group', ...box, children: [text(), text({ colour: '#fff' })] }],
      'elements.0.children.1.colour',
    ],
    ['an unknown element type', [text(), { type: 'rect', ...box }], 'elements.1.type'],
    ['a coordinate', [text({ x: 10_001 })], 'elements.0.x'],
    ['a size', [text({ width: -1 })], 'elements.0.width'],
    ['a font weight', [text({ fontWeight: 950 })], 'elements.0.fontWeight'],
    ['a font family', [text({ fontFamily: 'Comic Sans MS' })], 'elements.0.fontFamily'],
    ['an opacity', [text({ opacity: 1.5 })], 'elements.0.opacity'],
    ['a delay', [text({ delayMs: 10_001 })], 'elements.0.delayMs'],
    ['an element name', [text({ name: 'bad name' })], 'elements.0.name'],
    ['a colour', [text({ color: '#12345' })], 'elements.0.color'],
    ['a colour mixing text and a placeholder', [text({ color: '#{accent}' })], 'elements.0.color'],
    [
      'a gradient with one stop',
      [{ type: 'box', ...box, fill: { gradient: { angle: 0, stops: [{ at: 0, color: '#fff' }] } } }],
      'elements.0.fill.gradient.stops',
    ],
    [
      'a gradient angle that is not a number',
      [
        {
          type: 'box',
          ...box,
          fill: {
            gradient: {
              angle: '90deg',
              stops: [
                { at: 0, color: '#fff' },
                { at: 1, color: '#000' },
              ],
            },
          },
        },
      ],
      'elements.0.fill.gradient.angle',
    ],
    [
      'an unknown field in a gradient stop',
      [
        {
          type: 'box',
          ...box,
          fill: {
            gradient: {
              angle: 0,
              stops: [
                { at: 0, color: '#fff', offset: 1 },
                { at: 1, color: '#000' },
              ],
            },
          },
        },
      ],
      'elements.0.fill.gradient.stops.0.offset',
    ],
    ['a fill that is a number', [{ type: 'box', ...box, fill: 3 }], 'elements.0.fill'],
    ['an image source', [{ type: 'image', ...box, src: 'ftp://example.com/a.png' }], 'elements.0.src'],
    ['a clock format', [{ type: 'clock', ...box, clock: 'game', fontSize: 40, format: 'hh:mm' }], 'elements.0.format'],
  ])('%s', (_what, elements, path) => {
    expect(paths(withElements(...elements))).toEqual([path]);
  });

  it.each([
    ['a text placeholder', text({ text: 'P{periood}' }), 'elements.0.text', '"periood" is not an input'],
    ['a clock in text', text({ text: '{game}' }), 'elements.0.text', 'clock element'],
    ['a colour naming a text input', text({ color: '{home}' }), 'elements.0.color', 'color input'],
    ['a fill', { type: 'box', ...box, fill: '{nope}' }, 'elements.0.fill', 'not an input'],
    [
      'a border',
      { type: 'box', ...box, border: { width: 1, color: '{scoreA}' } },
      'elements.0.border.color',
      'color input',
    ],
    [
      'a shadow',
      { type: 'box', ...box, shadow: { x: 0, y: 0, blur: 4, color: '{logo}' } },
      'elements.0.shadow.color',
      'color',
    ],
    ['an image source', { type: 'image', ...box, src: '{home}' }, 'elements.0.src', 'image or asset input'],
    ['visibleIf', text({ visibleIf: 'scoreA' }), 'elements.0.visibleIf', 'boolean input'],
    ['a clock element', { type: 'clock', ...box, clock: 'scoreA', fontSize: 40 }, 'elements.0.clock', 'clock input'],
    ['visibleWhen', text({ visibleWhen: { input: 'scoreB', atLeast: 1 } }), 'elements.0.visibleWhen.input', 'scoreA'],
    [
      'visibleWhen on a clock',
      text({ visibleWhen: { input: 'game', atLeast: 1 } }),
      'elements.0.visibleWhen.input',
      'clock',
    ],
    [
      'visibleWhen atLeast on text',
      text({ visibleWhen: { input: 'home', atLeast: 1 } }),
      'elements.0.visibleWhen.atLeast',
      'number input',
    ],
    [
      'visibleWhen equals of another type',
      text({ visibleWhen: { input: 'show', equals: 'yes' } }),
      'elements.0.visibleWhen.equals',
      'true or false',
    ],
    [
      'visibleWhen notEquals of another type',
      text({ visibleWhen: { input: 'scoreA', notEquals: '' } }),
      'elements.0.visibleWhen.notEquals',
      'number',
    ],
    [
      'visibleWhen with both conditions',
      text({ visibleWhen: { input: 'scoreA', equals: 1, atLeast: 1 } }),
      'elements.0.visibleWhen',
      'exactly one',
    ],
    [
      'visibleWhen with equals and notEquals',
      text({ visibleWhen: { input: 'home', equals: 'a', notEquals: 'b' } }),
      'elements.0.visibleWhen',
      'exactly one',
    ],
    ['visibleWhen with neither', text({ visibleWhen: { input: 'scoreA' } }), 'elements.0.visibleWhen', 'exactly one'],
  ])('%s that names no fitting input', (_what, element, path, message) => {
    const found = problems(withElements(element));
    expect(found.map((e) => e.path)).toEqual([path]);
    expect(found[0]?.message).toContain(message);
  });

  it('accepts visibleWhen: a value equal or not equal to one the input can hold, or a number input at least a number', () => {
    const when = [
      text({ visibleWhen: { input: 'home', equals: 'home' } }),
      text({ visibleWhen: { input: 'home', notEquals: '' } }),
      text({ visibleWhen: { input: 'scoreA', atLeast: 5 }, visibleIf: 'show' }),
      text({ visibleWhen: { input: 'show', equals: false } }),
    ];
    expect(problems(withElements(...when))).toEqual([]);
    // A select: one of its options (a piece shown in one half only).
    const half = { name: 'half', type: 'select', options: ['1st half', '2nd half'] };
    const second = text({ visibleWhen: { input: 'half', equals: '2nd half' } });
    expect(problems({ inputs: [...inputs, half], elements: [second] })).toEqual([]);
  });

  it('refuses an item-scoped clock, naming it, and a scope that is not one', () => {
    const clock = problems({ inputs: [{ name: 'game', type: 'clock', scope: 'item' }] });
    expect(clock).toEqual([
      {
        path: 'inputs.0.scope',
        message: expect.stringContaining('clock input "game" is always a channel input') as string,
      },
    ]);
    expect(problems({ inputs: [{ name: 'game', type: 'clock', scope: 'channel' }] })).toEqual([]);
    expect(paths({ inputs: [{ name: 'name', type: 'text', scope: 'instance' }] })).toEqual(['inputs.0.scope']);
  });

  it('suggests the input meant', () => {
    expect(problems(withElements(text({ text: '{scorea}' })))[0]?.message).toContain('did you mean "scoreA"');
  });

  it('checks gradient stop colours and their order', () => {
    const fill = {
      gradient: {
        angle: 90,
        stops: [
          { at: 0.5, color: '#fff' },
          { at: 0.2, color: '{accent}' },
          { at: 1, color: '{home}' },
        ],
      },
    };
    expect(paths(withElements({ type: 'group', ...box, children: [{ type: 'box', ...box, fill }] }))).toEqual([
      'elements.0.children.0.fill.gradient.stops.1.at',
      'elements.0.children.0.fill.gradient.stops.2.color',
    ]);
  });

  it('refuses a version other than 1 with a clear message', () => {
    const [problem, ...rest] = problems({ version: 2 });
    expect(rest).toEqual([]);
    expect(problem).toEqual({ path: 'version', message: expect.stringContaining('version 1') as string });
  });

  it.each([
    ['a layer past 99', { layer: 100 }, 'layer'],
    ['a fractional layer', { layer: 1.5 }, 'layer'],
    ['the v0 `layers` field', { layers: [] }, 'layers'],
    ['a cut that takes time', { transitions: { in: { type: 'cut', durationMs: 300 } } }, 'transitions.in.durationMs'],
    ['a fade from an edge', { transitions: { out: { type: 'fade', from: 'left' } } }, 'transitions.out.from'],
    [
      'a transition too long',
      { transitions: { in: { type: 'fade', durationMs: 10_001 } } },
      'transitions.in.durationMs',
    ],
    ['an unknown transition', { transitions: { in: { type: 'zoom' } } }, 'transitions.in.type'],
  ])('%s', (_what, definition, path) => {
    expect(paths(definition)).toEqual([path]);
  });

  it.each([
    [
      'a duplicate input',
      [
        { name: 'a', type: 'text' },
        { name: 'a', type: 'number' },
      ],
      'inputs.1.name',
    ],
    ['a reserved input name', [{ name: '__proto__', type: 'text' }], 'inputs.0.name'],
    ['a text default that is a number', [{ name: 'a', type: 'text', default: 3 }], 'inputs.0.default'],
    ['a colour default that is not a colour', [{ name: 'a', type: 'color', default: 'red' }], 'inputs.0.default'],
    ['an image default that is not a URL', [{ name: 'a', type: 'image', default: 'logo.png' }], 'inputs.0.default'],
    ['a negative clock default', [{ name: 'a', type: 'clock', default: -1 }], 'inputs.0.default'],
    ['a clock default past 100 h', [{ name: 'a', type: 'clock', default: 360_000_001 }], 'inputs.0.default'],
    ['a text clock default', [{ name: 'a', type: 'clock', default: '12:00' }], 'inputs.0.default'],
    ['a clock stop past 100 h', [{ name: 'a', type: 'clock', stopAt: 360_000_001 }], 'inputs.0.stopAt'],
    ['a direction on a number', [{ name: 'a', type: 'number', direction: 'down' }], 'inputs.0.direction'],
    ['a stop on a text', [{ name: 'a', type: 'text', stopAt: 0 }], 'inputs.0.stopAt'],
    ['an unknown input type', [{ name: 'a', type: 'date' }], 'inputs.0.type'],
  ])('%s', (_what, badInputs, path) => {
    expect(paths({ inputs: badInputs })).toEqual([path]);
  });

  it('refuses duplicate element names, wherever they are', () => {
    const elements = [text({ name: 'a' }), { type: 'group', ...box, children: [text({ name: 'a' })] }];
    expect(paths({ elements })).toEqual(['elements.1.children.0.name']);
  });

  it.each([
    [
      'a duplicate trigger',
      [
        { name: 't', animation: 'flash' },
        { name: 't', animation: 'pulse' },
      ],
      'triggers.1.name',
    ],
    ['a trigger on an undeclared input', [{ name: 't', animation: 'flash', on: 'scoreB' }], 'triggers.0.on'],
    [
      'a target that is no element',
      [{ name: 't', animation: 'flash', targets: ['panel', 'pannel'] }],
      'triggers.0.targets.1',
    ],
    ['an unknown animation', [{ name: 't', animation: 'spin' }], 'triggers.0.animation'],
    ['a trigger too long', [{ name: 't', animation: 'flash', durationMs: 20_000 }], 'triggers.0.durationMs'],
    [
      'a keyframe opacity that is not a number',
      [{ name: 't', animation: { keyframes: [{ at: 0, opacity: 'half' }] } }],
      'triggers.0.animation.keyframes.0.opacity',
    ],
    [
      'keyframes out of order',
      [{ name: 't', animation: { keyframes: [{ at: 0.5 }, { at: 0.2 }] } }],
      'triggers.0.animation.keyframes.1.at',
    ],
  ])('%s', (_what, triggers, path) => {
    expect(paths({ inputs, elements: [{ type: 'box', ...box, name: 'panel' }], triggers })).toEqual([path]);
  });

  it('accepts a trigger bound to any input, a clock too (it fires on clock actions)', () => {
    const triggers = inputs.map((input, i) => ({ name: `t${i}`, animation: 'pulse', on: input.name }));
    expect(problems({ inputs, triggers })).toEqual([]);
  });

  it('names the nearest element for a target misspelt', () => {
    const found = problems({
      elements: [text({ name: 'scoreBox' })],
      triggers: [{ name: 't', animation: 'flash', targets: ['scorebox'] }],
    });
    expect(found[0]?.message).toContain('did you mean "scoreBox"');
  });
});

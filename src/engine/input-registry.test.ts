import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import type { InputDef, InputType } from '@onair/protocol';
import { closestName } from './closest-name.js';
import { assertCompatible, buildRegistry, MAX_TEXT_BYTES, validatePatch } from './input-registry.js';
import { ChannelRuntime } from './channel-runtime.js';
import { definition, emptyLive } from './engine.fixtures.js';
import type { ChannelRecord, SceneRecord } from './model.js';

const ISO = '2023-11-14T22:13:20.000Z';

function scene(id: string, inputs: InputDef[]): SceneRecord {
  return {
    id,
    channelId: 'ch_1',
    name: id,
    definition: definition(inputs),
    createdAt: ISO,
    updatedAt: ISO,
  };
}

const def = (name: string, type: InputType, dflt: InputDef['default'] = null): InputDef => ({
  name,
  type,
  label: name,
  default: dflt,
});

const registry = buildRegistry([
  scene('sc_1', [
    def('score', 'number', 0),
    def('title', 'text', ''),
    def('live', 'boolean', false),
    def('accent', 'color', '#ffffff'),
    def('logo', 'image'),
    def('timer', 'clock'),
  ]),
]);

/** The AppError validatePatch throws for `patch`, or undefined when it accepts it. */
function refusal(patch: Record<string, unknown>): AppError | undefined {
  try {
    validatePatch(registry, patch);
    return undefined;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

const accepts = (name: string, value: unknown) => expect(refusal({ [name]: value })).toBeUndefined();
const refuses = (name: string, value: unknown) => expect(refusal({ [name]: value })?.code).toBe('invalid_request');

describe('validatePatch: values against declared types', () => {
  it('numbers: finite, within ±1e15', () => {
    for (const v of [0, -3.5, 1e15, -1e15, 42]) accepts('score', v);
    for (const v of [1e15 + 1, -1e15 - 1, 1e16, NaN, Infinity, -Infinity, '5', true]) refuses('score', v);
  });

  it('text: at most 4 KiB counted in UTF-8 bytes, not characters', () => {
    accepts('title', '');
    accepts('title', 'a'.repeat(MAX_TEXT_BYTES));
    refuses('title', 'a'.repeat(MAX_TEXT_BYTES + 1));
    accepts('title', 'é'.repeat(2048)); // 4096 bytes
    refuses('title', 'é'.repeat(2049)); // 2049 characters, 4098 bytes
    accepts('title', '€'.repeat(1365)); // 4095 bytes
    refuses('title', '€'.repeat(1366)); // 4098 bytes
    accepts('title', '😀'.repeat(1024)); // 2048 UTF-16 units, 4096 bytes
    refuses('title', '😀'.repeat(1025));
    for (const v of [5, false, { text: 'x' }, ['x']]) refuses('title', v);
  });

  it('colours: #rgb, #rgba, #rrggbb, #rrggbbaa only', () => {
    for (const v of ['#fff', '#FFFA', '#ff8800', '#FF8800CC']) accepts('accent', v);
    for (const v of ['red', 'ff8800', '#ff880', '#ggg', '#ff8800cc0', ' #fff', '#fff ', 'rgb(1,2,3)', 0xff8800]) {
      refuses('accent', v);
    }
  });

  it('images: absolute http(s) URLs only', () => {
    accepts('logo', 'https://cdn.example.com/logo.png');
    accepts('logo', 'http://10.0.0.5:8080/a.png');
    const refused = [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'ftp://example.com/a.png',
      'file:///etc/passwd',
      '/relative.png',
      'logo.png',
      `https://example.com/${'a'.repeat(MAX_TEXT_BYTES)}`,
      42,
    ];
    for (const v of refused) refuses('logo', v);
  });

  it('booleans are true or false, nothing truthy', () => {
    accepts('live', true);
    accepts('live', false);
    for (const v of ['true', 'false', 1, 0, '']) refuses('live', v);
  });

  it('null means "back to the default" for every settable type', () => {
    for (const name of ['score', 'title', 'live', 'accent', 'logo']) accepts(name, null);
    expect(validatePatch(registry, { score: null }).get('score')).toBeNull();
  });

  it('a clock is never set as a value', () => {
    for (const v of [0, 1000, 'start', true]) refuses('timer', v);
    expect(refusal({ timer: 5 })?.message).toMatch(/clock/);
  });

  it('a patch is all-or-nothing and names the failing path', () => {
    const err = refusal({ score: 1, title: 7 });
    expect(err?.code).toBe('invalid_request');
    expect(err?.errors).toEqual([{ path: 'title', message: 'must be a string' }]);
  });

  it('returns the checked values as a Map in patch order', () => {
    const out = validatePatch(registry, { title: 'Hi', score: 3, live: true });
    expect([...out]).toEqual([
      ['title', 'Hi'],
      ['score', 3],
      ['live', true],
    ]);
  });
});

describe('validatePatch: names', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'])(
    '"%s" is an unknown input and pollutes nothing',
    (name) => {
      const patch = JSON.parse(`{"${name}": {"polluted": true}}`) as Record<string, unknown>;
      const err = refusal(patch);
      expect(err?.code).toBe('unknown_input');
      expect(err?.extra).toMatchObject({ input: name });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
      expect(typeof Object.prototype.toString).toBe('function');
    },
  );

  it('an input inherited from the prototype is not an input', () => {
    const patch = Object.create({ score: 1 }) as Record<string, unknown>;
    expect([...validatePatch(registry, patch)]).toEqual([]);
  });

  it('hints the closest declared name', () => {
    const err = refusal({ scroe: 1 });
    expect(err?.code).toBe('unknown_input');
    expect(err?.extra).toEqual({ input: 'scroe', closest: 'score' });
    expect(err?.message).toContain('Did you mean "score"?');
    expect(err?.errors).toEqual([{ path: 'scroe', message: 'unknown input' }]);
    expect(refusal({ TITLE: 'x' })?.extra).toEqual({ input: 'TITLE', closest: 'title' });
  });

  it('gives no hint when nothing is close, and says so when the channel declares no inputs', () => {
    const far = refusal({ zzzzzzzzzzzz: 1 });
    expect(far?.extra).toEqual({ input: 'zzzzzzzzzzzz', closest: null });
    expect(far?.message).not.toContain('Did you mean');
    try {
      validatePatch(new Map(), { score: 1 });
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: 'unknown_input' });
      expect((err as Error).message).toContain('no scene that declares inputs');
    }
  });
});

describe('closestName', () => {
  it('picks the nearest candidate within about half the name', () => {
    expect(closestName('scroe', ['title', 'score', 'logo'])).toBe('score');
    expect(closestName('Home_Score', ['home_score', 'away_score'])).toBe('home_score');
    expect(closestName('ab', ['xy'])).toBe('xy'); // distance 2 is within the minimum limit of 2
    expect(closestName('abc', ['xyz'])).toBeUndefined();
    expect(closestName('score', [])).toBeUndefined();
  });

  it('stays cheap and sane on very long names', () => {
    const long = 'a'.repeat(10_000);
    expect(closestName(long, ['a', 'score'])).toBeUndefined();
    expect(closestName('score', [long])).toBeUndefined();
  });
});

describe('buildRegistry and assertCompatible', () => {
  const a = scene('sc_a', [def('score', 'number', 1), def('title', 'text', 'A')]);
  const b = scene('sc_b', [def('score', 'number', 2)]);

  it('merges inputs by name; the first scene gives the default', () => {
    const merged = buildRegistry([a, b]);
    expect([...merged.keys()]).toEqual(['score', 'title']);
    expect(merged.get('score')?.default).toBe(1);
  });

  it('refuses a scene that redeclares a channel input with another type', () => {
    const clash = scene('sc_c', [def('score', 'text', '')]);
    expect(() => assertCompatible(buildRegistry([a]), clash, [a])).toThrow(
      expect.objectContaining({ code: 'conflict' }),
    );
    expect(() => assertCompatible(buildRegistry([a]), b, [a])).not.toThrow();
    // Editing the only scene that declares a name may change its type.
    const retyped = scene('sc_a', [def('score', 'text', '')]);
    expect(() => assertCompatible(buildRegistry([a]), retyped, [a])).not.toThrow();
  });

  it('refuses a scene that redeclares an input with another scope, absent meaning channel', () => {
    const lower = scene('sc_l', [{ ...def('name', 'text', ''), scope: 'item' }]);
    const card = scene('sc_c', [def('name', 'text', '')]);
    const clash = () => assertCompatible(buildRegistry([lower]), card, [lower]);
    expect(clash).toThrow(expect.objectContaining({ code: 'conflict' }));
    expect(clash).toThrow('Input "name" is already declared with scope "item" by scene "sc_l"');
    const explicit = scene('sc_c', [{ ...def('score', 'number', 0), scope: 'channel' }]);
    expect(() => assertCompatible(buildRegistry([a]), explicit, [a])).not.toThrow();
    const sameItem = scene('sc_c', [{ ...def('name', 'text', 'x'), scope: 'item' }]);
    expect(() => assertCompatible(buildRegistry([lower]), sameItem, [lower])).not.toThrow();
    // The only scene that declares a name may change its scope.
    const rescoped = scene('sc_l', [def('name', 'text', '')]);
    expect(() => assertCompatible(buildRegistry([lower]), rescoped, [lower])).not.toThrow();
  });

  it('channels with one scene of the same definition share one registry; a scene change rebuilds only its own', () => {
    const template = a.definition;
    const live = emptyLive();
    const one = new ChannelRuntime(channel('ch_1'), [{ ...a, channelId: 'ch_1' }], { ...live });
    const two = new ChannelRuntime(channel('ch_2'), [{ ...a, id: 'sc_2', channelId: 'ch_2', definition: template }], {
      ...live,
    });
    expect(two.registry).toBe(one.registry);
    two.upsertScene({ ...b, channelId: 'ch_2', definition: { ...b.definition, inputs: [def('clock', 'clock')] } });
    expect([...two.registry.keys()]).toEqual(['score', 'title', 'clock']);
    expect([...one.registry.keys()]).toEqual(['score', 'title']);
    expect(buildRegistry([])).toBe(buildRegistry([]));
  });
});

function channel(id: string): ChannelRecord {
  return {
    id,
    orgId: 'org_1',
    name: id,
    fps: 60,
    width: 1920,
    height: 1080,
    outputToken: `token_${id}`,
    createdAt: ISO,
    updatedAt: ISO,
  };
}

/**
 * Every incoming-hook post, fuzzed (docs/incoming-hooks.md). Hooks with a nested mapping, an empty
 * mapping (every top-level field sets the input of its name), a mapping whose field paths are names objects inherit
 * (`toString`, `valueOf`, `isPrototypeOf.x`…; `__proto__`, `constructor` and `prototype` are refused as field names)
 * and one that requires signatures are sent arbitrary JSON (values as scorekeepers send them and as nobody should:
 * numbers in strings, huge strings, prototype keys, nesting thousands deep), bodies that are not JSON or not UTF-8, other content types, dry runs, signatures right, wrong, stale and
 * malformed. Properties:
 * - every answer has a status POST /v1/hooks/{token} documents (kit.ts `violations`: catalogued problem, no 500);
 * - a refused post (4xx), a dry run and a post that maps nothing (`frame: null`) change no input, clock or scene;
 * - what an accepted post reports as `applied` is what the channel's state then shows, and comes only from fields
 *   the post carries (never from a prototype: `{}` must not set the input mapped from `valueOf`).
 */
import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectStatus, stableState, type State } from '../helpers/api.js';
import type { HookCreated } from '../helpers/incoming-hooks.js';
import {
  bodyBytes,
  bodySpec,
  contentType,
  headerValue,
  hostileJson,
  hugeString,
  nastyNumber,
  nastyString,
  obj,
  PROTO_KEYS,
  type BodySpec,
  type J,
} from './arbitraries.js';
import {
  assertProperty,
  codeOf,
  expand,
  fail,
  healthStatus,
  runs,
  ServerWatch,
  Tally,
  utf8,
  violations,
  workspaces,
} from './kit.js';
import { allowedStatuses, loadDocument, operationsOf, type Operation } from './openapi.js';
import { read, startWorld, type World, type Workspace } from './world.js';

const WORKSPACES = workspaces(2);
const POSTS_PER_SECOND = 25;

interface FuzzHook {
  kind: 'scorekeeper' | 'flat' | 'nested' | 'prototype' | 'signed';
  token: string;
  mapping: Record<string, string>;
  secret: string | null;
}

let world: World;
let watch: ServerWatch;
let post: Operation;
let inputNames: string[];
let defaults: Record<string, unknown>;
const hooks = new Map<number, FuzzHook[]>();
const tally = new Tally();

const NESTED = {
  'game.home.name': 'home',
  'game.away.name': 'away',
  'game.home.score': 'scoreA',
  'game.away.score': 'scoreB',
  'game.quarter': 'period',
  'game.clock.ms': 'gameClock',
  'game.clock.running': 'gameClock',
  'a.b.c.d.e.f.g.h': 'periodLabel',
};
// `__proto__`, `constructor` and `prototype` are refused as field names; the other names objects inherit are not.
const PROTOTYPE = {
  valueOf: 'home',
  toString: 'away',
  'isPrototypeOf.x': 'periodLabel',
  hasOwnProperty: 'homeColor',
  'game.toLocaleString.name': 'awayColor',
};

beforeAll(async () => {
  world = await startWorld(WORKSPACES);
  watch = new ServerWatch(() => world.server.url);
  post = operationsOf(await loadDocument(world.server.url)).find((op) => op.name === 'POST /hooks/{token}')!;
  expect(post).toBeDefined();
  const ws0 = world.workspaces[0]!;
  const scene = await ws0.call<{ inputs: { name: string; default: unknown }[] }>(
    'GET',
    `/v1/channels/${ws0.channelId}/scenes/${ws0.sceneId}`,
  );
  inputNames = scene.body.inputs.map((i) => i.name);
  defaults = Object.fromEntries(scene.body.inputs.map((i) => [i.name, i.default]));
  for (const [i, ws] of world.workspaces.entries()) {
    const add = async (kind: FuzzHook['kind'], mapping: Record<string, string>, requireSignature = false) => {
      const hook = expectStatus(
        await ws.call<HookCreated>('POST', `/v1/channels/${ws.channelId}/incoming-hooks`, {
          name: kind,
          mapping,
          requireSignature,
        }),
        201,
      );
      return { kind, token: hook.url.split('/').pop()!, mapping, secret: hook.secret };
    };
    hooks.set(i, [
      {
        kind: 'scorekeeper',
        token: ws.hookToken,
        mapping: { home_score: 'scoreA', 'game.clock.running': 'gameClock' },
        secret: null,
      },
      await add('flat', {}),
      await add('nested', NESTED),
      await add('prototype', PROTOTYPE),
      await add('signed', {}, true),
    ]);
  }
}, 120_000);

afterAll(async () => {
  console.log(tally.summary('incoming hooks: hook × status × code'));
  watch?.dispose();
  await world?.dispose();
});

// ---------------------------------------------------------------------------------------------------------------

type Signature = 'none' | 'right' | 'wrong' | 'stale' | { timestamp: string; signature: string };

interface PostCase {
  ws: number;
  hook: number;
  body: BodySpec;
  contentType: string | undefined;
  dryRun: '' | '?dryRun=1' | '?dryRun=true' | '?dryRun=0' | '?dryRun=x';
  signature: Signature;
}

/** Values the way scorekeepers send them, and the way nobody should. */
const value: fc.Arbitrary<J> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -5, max: 500 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 500 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<J>(
      'true',
      'false',
      true,
      false,
      null,
      '300000',
      360_000_001,
      '#00ff00',
      '1e3',
      ' 3',
      '3 ',
    ),
  },
  { weight: 2, arbitrary: nastyString },
  { weight: 2, arbitrary: nastyNumber },
  { weight: 1, arbitrary: hugeString },
);

/** Objects shaped like each mapping: the nested game object, flat input names, prototype names; extras ignored. */
function scorekeeperBody(): fc.Arbitrary<J> {
  const field = fc.oneof(
    fc.constantFrom('home_score', 'venue', 'a', ...inputNames, ...PROTO_KEYS, ...Object.keys(PROTOTYPE)),
    nastyString,
  );
  const { tree } = fc.letrec<{ tree: J }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 4, arbitrary: value },
      {
        weight: 2,
        arbitrary: fc
          .array(
            fc.tuple(
              fc.oneof(
                field,
                fc.constantFrom(
                  'game',
                  'home',
                  'away',
                  'clock',
                  'score',
                  'name',
                  'ms',
                  'running',
                  'quarter',
                  'b',
                  'c',
                  'x',
                ),
              ),
              tie('tree'),
            ),
            { maxLength: 5 },
          )
          .map(obj),
      },
    ),
  }));
  return fc.array(fc.tuple(field, tree), { maxLength: 8 }).map(obj);
}

function postCase(): fc.Arbitrary<PostCase> {
  const jsonType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'Application/JSON');
  return fc.record({
    ws: fc.nat({ max: WORKSPACES - 1 }),
    hook: fc.nat({ max: 4 }),
    body: fc.oneof(
      { weight: 6, arbitrary: scorekeeperBody().map((v): BodySpec => ({ kind: 'json', value: v })) },
      { weight: 3, arbitrary: bodySpec(hostileJson(['game', 'home_score', ...inputNames])) },
    ),
    contentType: fc.oneof({ weight: 6, arbitrary: jsonType }, { weight: 1, arbitrary: contentType }),
    dryRun: fc.constantFrom<PostCase['dryRun']>('', '', '', '?dryRun=1', '?dryRun=true', '?dryRun=0', '?dryRun=x'),
    signature: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<Signature>('right', 'none') },
      { weight: 2, arbitrary: fc.constantFrom<Signature>('wrong', 'stale') },
      { weight: 1, arbitrary: fc.record({ timestamp: headerValue, signature: headerValue }) },
    ),
  });
}

function sign(secret: string, timestamp: number, body: Buffer): string {
  return `v1=${crypto.createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

/** The value at a dotted path of `body`, when every step is an own property of a plain object. */
function own(body: unknown, path: string): boolean {
  let at: unknown = body;
  for (const step of path.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, step)) return false;
    at = (at as Record<string, unknown>)[step];
  }
  return true;
}

const lastPosts = new Map<number, number[]>();

async function pace(i: number): Promise<void> {
  const times = (lastPosts.get(i) ?? []).filter((t) => t > performance.now() - 1_000);
  if (times.length >= POSTS_PER_SECOND) await new Promise((r) => setTimeout(r, times[0]! + 1_000 - performance.now()));
  times.push(performance.now());
  lastPosts.set(i, times);
}

async function look(ws: Workspace): Promise<{ state: Omit<State, 'serverTime'>; scenes: unknown }> {
  const state = await read<State>(ws, `/v1/channels/${ws.channelId}/state`);
  const scenes = await read(ws, `/v1/channels/${ws.channelId}/scenes`);
  return { state: stableState(state), scenes };
}

const last = new Map<number, Awaited<ReturnType<typeof look>>>();

it('answers every post with a documented status; refused posts, dry runs and posts that map nothing change nothing', async () => {
  await assertProperty(
    'incoming-hook posts',
    fc.asyncProperty(postCase(), async (c) => {
      const ws = world.workspaces[c.ws]!;
      const hook = hooks.get(c.ws)![c.hook]!;
      const body = bodyBytes(c.body) ?? Buffer.alloc(0);
      const headers: Record<string, string> = {};
      if (c.contentType !== undefined) headers['content-type'] = c.contentType;
      const now = Math.floor(Date.now() / 1000);
      const secret = hook.secret ?? 'whsec_not_this_hooks_secret';
      if (c.signature === 'right' || c.signature === 'wrong' || c.signature === 'stale') {
        const at = c.signature === 'stale' ? now - 301 : now;
        headers['x-service-timestamp'] = String(at);
        headers['x-service-signature'] = sign(c.signature === 'wrong' ? `${secret}x` : secret, at, body);
      } else if (c.signature !== 'none') {
        headers['x-service-timestamp'] = expand(c.signature.timestamp);
        headers['x-service-signature'] = expand(c.signature.signature);
      }
      const was = last.get(c.ws) ?? (await look(ws));
      await pace(c.ws);
      const path = `/v1/hooks/${hook.token}${c.dryRun}`;
      const description = `${hook.kind} hook ${JSON.stringify(hook.mapping)}: POST /v1/hooks/$TOKEN${c.dryRun} ${JSON.stringify(headers)} body=${JSON.stringify(body.toString('latin1').slice(0, 400))}${body.length > 400 ? ` (${body.length} bytes)` : ''}`;
      const answer = await watch.send(world.client, { method: 'POST', path, headers, body }, description);
      tally.add(`${hook.kind} ${answer.status} ${codeOf(answer)}`.trim());
      const problems = violations(answer, {
        allowed: allowedStatuses(post, false),
        sent: `${path} ${body.toString('utf8')}`,
      });
      const seen = await look(ws);
      last.set(c.ws, seen);
      const dryRun = c.dryRun === '?dryRun=1' || c.dryRun === '?dryRun=true';
      let result: { frame?: unknown; applied?: Record<string, unknown> } = {};
      if (answer.status === 200) {
        try {
          result = JSON.parse(utf8(answer)) as typeof result;
        } catch {
          problems.push('a 200 whose body is not JSON');
        }
      }
      const unchanged = answer.status >= 400 || dryRun || (answer.status === 200 && result.frame === null);
      if (unchanged && JSON.stringify(seen) !== JSON.stringify(was)) {
        problems.push(
          `${answer.status >= 400 ? `a refused (${answer.status})` : dryRun ? 'a dry-run' : 'a frame: null'} post changed the channel` +
            `\n    before: ${JSON.stringify(was.state).slice(0, 500)}\n    after:  ${JSON.stringify(seen.state).slice(0, 500)}`,
        );
      }
      if (answer.status === 200 && result.applied) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          parsed = undefined;
        }
        const mapping = Object.keys(hook.mapping).length > 0 ? hook.mapping : null;
        for (const [input, applied] of Object.entries(result.applied)) {
          // Only fields the post carries, as own properties, may set an input.
          const fields = mapping ? Object.keys(mapping).filter((f) => mapping[f] === input) : [input];
          if (!fields.some((f) => own(parsed, f)))
            problems.push(`applied ${input} from ${fields.join(' or ')}, which the post does not carry`);
          // What was applied is what the state shows (clocks are reported as actions, not values); `null` puts
          // the input back to its scene default, and is reported as null (PATCH's answer reports the default).
          const shown = seen.state.inputs[input];
          const expected = applied === null ? defaults[input] : applied;
          if (applied === null && input in seen.state.inputs)
            tally.note('`applied` reports null, not the default it set');
          if (!dryRun && input in seen.state.inputs && JSON.stringify(shown) !== JSON.stringify(expected))
            problems.push(`applied ${input}=${JSON.stringify(applied)} but the state shows ${JSON.stringify(shown)}`);
        }
      }
      fail(problems, `${description}\n  → ${answer.status} ${answer.text.slice(0, 300)}`);
    }),
    runs(250),
  );
  expect(await healthStatus(world.server.url)).toBe(200);
}, 180_000);

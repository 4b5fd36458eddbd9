/**
 * One operation, one answer, for every caller (docs/api.md, "The order of checks"; "Real-time WebSocket": ops follow
 * the REST rules): each live op reached through each of its entry points (the real port, where the transport answers
 * PATCH …/inputs on its fast route; the Hono app; the WebSocket op; an incoming hook's post for input values and
 * clocks) answers the same request with the same status, code and detail, whoever asks: a `*` key, a key without
 * the permission, one locked to another channel, one of another workspace, a viewer's or an operator's session.
 * A channel the caller may not see (unknown, another workspace's, outside the lock, an id over 100 characters) is
 * refused at a WebSocket's upgrade: that refusal is the socket's answer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CLOCK_MS } from '@onair/protocol';
import { api, createChannelWithScoreboard, expectStatus, type Api, type Channel } from './helpers/api.js';
import { addMember, createKey, newWorkspace, setupOwner } from './helpers/access-fixtures.js';
import { incomingHookOf } from './helpers/access-openapi.js';
import {
  hookPost,
  Raw,
  socketMessage,
  Sockets,
  viaHono,
  viaPort,
  type Answer,
  type Credential,
  type Send,
} from './helpers/parity-entries.js';
import { startTestServer, type TestServer } from './helpers/server.js';

type Caller = 'root' | 'narrow' | 'writer' | 'locked' | 'foreign' | 'viewer' | 'operator' | 'owner';
type Target = 'main' | 'unknown' | 'long' | 'empty';

interface Case {
  name: string;
  path: string;
  body?: unknown;
  as?: Caller;
  channel?: Target;
  /** What the incoming hook is posted for the same change. */
  hook?: unknown;
  /** false: the entry points word the same refusal their own way (status and code still agree). */
  sameDetail?: false;
}

type Entry = (c: Case, cred: Credential, channel: string) => Promise<Answer>;

const UNKNOWN = 'ch_0000000000000000000000000000dead';
/** One character over the longest channel id (docs/api.md, "The order of checks"). */
const LONG = `ch_${'a'.repeat(98)}`;

let server: TestServer;
let root: Api;
let channelId: string;
let sceneId: string;
let hookToken: string;
/** A channel of a workspace the viewer and the operator are no members of. */
let foreignChannel: string;
let callers: Record<Caller, Credential>;
let sockets: Sockets;

beforeAll(async () => {
  // Refused requests count against the updates bucket too: the limiter's clock moves 1.1 s per decision, so the
  // cases compare answers, never the limits (30 updates a second, 60 creates a minute).
  let limiterNow = Date.now();
  server = await startTestServer({ limiterClock: () => (limiterNow += 1_100) });
  root = api(server.url, server.key);
  const owner = await setupOwner(server);
  ({ channelId, sceneId } = await createChannelWithScoreboard(root));
  const other = expectStatus(await root<Channel>('POST', '/v1/channels', { name: 'Other' }), 201).id;
  hookToken = (await incomingHookOf(root, channelId)).token;
  const secret = async (permissions: string[], channels?: string[]) =>
    ({ key: (await createKey(root, permissions, channels)).secret }) as Credential;
  const member = async (email: string, role: string) =>
    ({ cookie: (await addMember(server.url, owner.call, email, role)).cookie }) as Credential;
  const foreignKey = async (): Promise<Credential> => {
    const workspace = await newWorkspace(server.url, owner);
    foreignChannel = expectStatus(await workspace.call<Channel>('POST', '/v1/channels', { name: 'B' }), 201).id;
    return { key: workspace.key };
  };
  callers = {
    root: { key: server.key },
    narrow: await secret(['channels:read']),
    writer: await secret(['inputs:write', 'playout:write']),
    locked: await secret(['*'], [other]),
    foreign: await foreignKey(),
    viewer: await member('viewer@example.com', 'viewer'),
    operator: await member('operator@example.com', 'operator'),
    owner: { cookie: owner.cookie },
  };
  sockets = new Sockets(server);
});

afterEach(() => sockets.closeAll());
afterAll(async () => {
  await server.dispose();
});

const channelOf = (target: Target = 'main') => ({ main: channelId, unknown: UNKNOWN, long: LONG, empty: '' })[target];
const methodOf = (path: string) => (path === '/inputs' ? 'PATCH' : 'POST');
const rest =
  (send: Send): Entry =>
  (c, cred, channel) =>
    send(cred, methodOf(c.path), `/v1/channels/${channel}${c.path}`, c.body);
const ENTRIES: Record<string, () => Entry> = {
  port: () => rest(viaPort(server)),
  hono: () => rest(viaHono(server)),
  websocket: () => (c, cred, channel) => sockets.op(cred, channel, socketMessage(c.path, c.body)),
  hook: () => (c) => hookPost(server, hookToken, c.hook),
};

/** Nothing cued, nothing on air: the same start for every entry point. */
async function reset(): Promise<void> {
  await root('POST', `/v1/channels/${channelId}/take`);
  expectStatus(await root('POST', `/v1/channels/${channelId}/clear`), 200);
}

/** Runs the cases in order through each entry point, from the same state; returns the answers once all agree. */
async function compare(cases: Case[], entryNames: string[]): Promise<Answer[]> {
  const runs: Record<string, Answer[]> = {};
  for (const name of entryNames) {
    const entry = ENTRIES[name]!();
    await reset();
    runs[name] = [];
    for (const c of cases) {
      const { status, code, detail } = await entry(c, callers[c.as ?? 'root'], channelOf(c.channel));
      runs[name].push({ status, code, ...(c.sameDetail === false ? {} : { detail }) });
    }
  }
  const [first, ...others] = entryNames;
  for (const name of others) {
    cases.forEach((c, i) => expect(runs[name]![i], `${c.name}: ${name} vs ${first}`).toEqual(runs[first!]![i]));
  }
  return runs[first!]!;
}

/** A row of a table: the request, who sends it to which channel, and what it answers (a code, or a status). */
type Row = [Case, string | number];
const row = (name: string, path: string, body: unknown, outcome: string | number, more: Partial<Case> = {}): Row => [
  { name, path, body, ...more },
  outcome,
];

/** Compares the entry points over the rows, then checks the answers they agree on. */
async function check(rows: Row[], entryNames: string[]): Promise<void> {
  const answers = await compare(
    rows.map(([c]) => c),
    entryNames,
  );
  expect(answers.map((a) => a.code ?? a.status)).toEqual(rows.map(([, outcome]) => outcome));
}

describe('PATCH …/inputs: the fast route, the Hono route and the patch op', () => {
  it('answer every caller the same way', async () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`x${i}`, 1]));
    const patch = (name: string, body: unknown, outcome: string | number, more?: Partial<Case>) =>
      row(name, '/inputs', body, outcome, more);
    const [good, bad] = [{ scoreA: 3 }, [1]];
    await check(
      [
        patch('a good patch', good, 200),
        patch('an array', bad, 'invalid_request'),
        patch('a string', 'scoreA', 'invalid_request'),
        patch('an empty object', {}, 'invalid_request'),
        patch('too many inputs', many, 'invalid_request'),
        patch('an unknown input', { scoreX: 1 }, 'unknown_input'),
        patch('a wrong type', { scoreA: 'three' }, 'invalid_request'),
        patch('a prototype name', JSON.parse('{"__proto__": 1}'), 'unknown_input'),
        patch('a key without inputs:write', good, 'forbidden', { as: 'narrow' }),
        patch('the same, with a bad body', bad, 'forbidden', { as: 'narrow' }),
        patch('a key locked to another channel', good, 'not_found', { as: 'locked' }),
        patch('the same, with a bad body', bad, 'not_found', { as: 'locked' }),
        patch("another workspace's key", good, 'not_found', { as: 'foreign' }),
        patch('an unknown channel', good, 'not_found', { channel: 'unknown' }),
        patch('the same, bad body, no permission', bad, 'not_found', { channel: 'unknown', as: 'narrow' }),
        patch('a 101-character id', good, 'not_found', { channel: 'long' }),
        patch('the same, bad body, no permission', bad, 'not_found', { channel: 'long', as: 'narrow' }),
        patch("a viewer's session", good, 'forbidden', { as: 'viewer' }),
        patch('the same, with a bad body', bad, 'forbidden', { as: 'viewer' }),
        patch("an operator's session", { scoreA: 4 }, 200, { as: 'operator' }),
        patch('the same, with a wrong type', { scoreA: true }, 'invalid_request', { as: 'operator' }),
        patch("an owner's session, an unknown input", { scoreX: 1 }, 'unknown_input', { as: 'owner' }),
      ],
      ['port', 'hono', 'websocket'],
    );
  });
});

describe('PATCH …/inputs: the body, read before the guard, on the fast route and the Hono route', () => {
  it('answer every body the same way', async () => {
    const raw = (name: string, body: Raw, outcome: string | number, more?: Partial<Case>) =>
      row(name, '/inputs', body, outcome, more);
    const malformed = new Raw('{"scoreA":');
    await check(
      [
        raw('no body', new Raw(''), 'invalid_request'),
        raw('only a space', new Raw(' '), 'invalid_request'),
        raw('a byte order mark', new Raw('\ufeff{"scoreA":1}'), 200),
        raw('a JSON media type', new Raw('{"scoreA":2}', 'application/merge-patch+json'), 200),
        raw('no media type', new Raw('{"scoreA":1}', ''), 'unsupported_media_type'),
        raw('text', new Raw('scoreA=1', 'text/plain'), 'unsupported_media_type'),
        raw('nested 70 deep', new Raw(`${'['.repeat(70)}${']'.repeat(70)}`), 'invalid_request'),
        raw('malformed JSON on a 101-character id', malformed, 'invalid_request', { channel: 'long' }),
        raw('malformed JSON, a key locked elsewhere', malformed, 'invalid_request', { as: 'locked' }),
        raw('text, no permission, an unknown channel', new Raw('x', 'text/plain'), 'unsupported_media_type', {
          as: 'narrow',
          channel: 'unknown',
        }),
        raw("malformed JSON, a viewer's session", malformed, 'invalid_request', { as: 'viewer' }),
      ],
      ['port', 'hono'],
    );
  });

  // The fast route decodes the channel id in the path as Hono and the WebSocket's query do.
  it('decode a percent-encoded channel id alike', async () => {
    const encoded = `/v1/channels/${channelId.replace('_', '%5F')}/inputs`;
    const viaHonoAnswer = await viaHono(server)(callers.root, 'PATCH', encoded, { scoreA: 5 });
    expect(viaHonoAnswer).toEqual({ status: 200 });
    expect(await viaPort(server)(callers.root, 'PATCH', encoded, { scoreA: 5 })).toEqual(viaHonoAnswer);
  });
});

describe('playout, triggers and clocks: the REST route, the Hono route and the WebSocket op', () => {
  it('answer every caller the same way', async () => {
    const clock = '/clocks/gameClock';
    // The sequence means something: the take worked, the second take found preview empty, and so on.
    await check(
      [
        row('cue', '/preview', { sceneId }, 200),
        row('cue an unknown scene', '/preview', { sceneId: 'sc_nope' }, 'not_found'),
        row('cue without a scene', '/preview', {}, 'invalid_request'),
        row('cue with an extra field', '/preview', { sceneId, layer: 2 }, 'invalid_request'),
        row('take a layer out of range', '/take', { layer: 100 }, 'invalid_request'),
        row('take', '/take', {}, 200),
        row('take with nothing cued', '/take', {}, 'preview_empty'),
        row('clear a layer and a scene', '/clear', { layer: 0, sceneId }, 'invalid_request'),
        row('cut', '/program', { sceneId }, 200),
        row('cut on a 101-character id', '/program', { sceneId }, 'not_found', { channel: 'long' }),
        row('cut with a key locked elsewhere', '/program', {}, 'not_found', { as: 'locked' }),
        row("a viewer's cut", '/program', { sceneId }, 'forbidden', { as: 'viewer' }),
        row('clear', '/clear', {}, 200),
        row('clear without playout:write', '/clear', {}, 'forbidden', { as: 'narrow' }),
        row('the same, with a bad body', '/clear', { layer: -1 }, 'forbidden', { as: 'narrow' }),
        row('a trigger without playout:write', '/triggers/flashScoreA', {}, 'forbidden', { as: 'narrow' }),
        row('a clock, bad body, no inputs:write', clock, { action: 'x' }, 'forbidden', { as: 'narrow' }),
        row('an unknown trigger', '/triggers/nope', {}, 'unknown_trigger'),
        row('a clock action without ms', clock, { action: 'set' }, 'invalid_request'),
        row('a clock action with a stray ms', clock, { action: 'start', ms: 1 }, 'invalid_request'),
        row('an unknown clock', '/clocks/nope', { action: 'start' }, 'not_found'),
        row('an unknown action', clock, { action: 'rewind' }, 'invalid_request'),
        row('take on an unknown channel', '/take', {}, 'not_found', { channel: 'unknown' }),
        row('cue on a 101-character id', '/preview', { sceneId }, 'not_found', { channel: 'long' }),
        row('the same, bad body, no permission', '/clear', { layer: -1 }, 'not_found', {
          channel: 'long',
          as: 'narrow',
        }),
        row('a clock on a 101-character id', clock, { action: 'x' }, 'not_found', { channel: 'long' }),
        row('cue with a key locked elsewhere', '/preview', { sceneId }, 'not_found', { as: 'locked' }),
        row("take with another workspace's key", '/take', {}, 'not_found', { as: 'foreign' }),
        row("a viewer's take", '/take', {}, 'forbidden', { as: 'viewer' }),
        row("a viewer's clear with a bad body", '/clear', { layer: 100 }, 'forbidden', { as: 'viewer' }),
        row("a viewer's clock", clock, { action: 'start' }, 'forbidden', { as: 'viewer' }),
        row("an operator's take, nothing cued", '/take', {}, 'preview_empty', { as: 'operator' }),
        row("an operator's cue", '/preview', { sceneId }, 200, { as: 'operator' }),
        row("an operator's take", '/take', {}, 200, { as: 'operator' }),
        row("an operator's unknown trigger", '/triggers/nope', {}, 'unknown_trigger', { as: 'operator' }),
        row("an operator's clock", clock, { action: 'start' }, 200, { as: 'operator' }),
        row("an owner's clock, a bad action", clock, { action: 'rewind' }, 'invalid_request', { as: 'owner' }),
        row("an owner's clear", '/clear', { sceneId }, 200, { as: 'owner' }),
      ],
      ['port', 'hono', 'websocket'],
    );
  });
});

describe('an incoming hook: its post sets the same inputs and drives the same clocks', () => {
  it('answers as PATCH …/inputs, the clocks route and their ops do', async () => {
    // The hook maps fields by name (no mapping): {"scoreA": 4} is the patch {"scoreA": 4}. Where a value does not
    // fit, the hook's detail names the field and the input it maps to (docs/incoming-hooks.md, "Posting").
    const over = MAX_CLOCK_MS + 1;
    const long = 'x'.repeat(5000);
    const clock = '/clocks/gameClock';
    const own = { sameDetail: false } as const;
    const both = (name: string, hook: unknown, outcome: string | number, more?: Partial<Case>) =>
      row(name, '/inputs', hook, outcome, { hook, ...more });
    await check(
      [
        both('a number', { scoreA: 4 }, 200),
        both('not a colour', { homeColor: 'red' }, 'invalid_request'),
        both('back to the default', { scoreA: null }, 200),
        both('a word for a number', { scoreA: 'x' }, 'invalid_request', own),
        both('text over 4 KiB', { home: long }, 'invalid_request', own),
        row('a clock set', clock, { action: 'set', ms: 300_000 }, 200, { hook: { gameClock: 300_000 } }),
        row('a clock started', clock, { action: 'start' }, 200, { hook: { gameClock: true } }),
        row('a clock stopped', clock, { action: 'stop' }, 200, { hook: { gameClock: false } }),
        row('a clock set past 100 h', clock, { action: 'set', ms: over }, 'invalid_request', {
          hook: { gameClock: over },
          ...own,
        }),
      ],
      ['port', 'hono', 'websocket', 'hook'],
    );
  });
});

describe('reading a channel: GET …/state and the WebSocket upgrade', () => {
  it('admit and refuse the same callers with the same answer', async () => {
    const cases: [string, Caller, Target, string | number][] = [
      ['a * key', 'root', 'main', 200],
      ['a channels:read key', 'narrow', 'main', 200],
      ['a key without channels:read', 'writer', 'main', 'forbidden'],
      ['a key locked to another channel', 'locked', 'main', 'not_found'],
      ["another workspace's key", 'foreign', 'main', 'not_found'],
      ['an unknown channel', 'root', 'unknown', 'not_found'],
      ['an unknown channel, a key without channels:read', 'writer', 'unknown', 'not_found'],
      ['a 101-character id', 'root', 'long', 'not_found'],
      ['a 101-character id, a key without channels:read', 'writer', 'long', 'not_found'],
      ["a viewer's session", 'viewer', 'main', 200],
      ["an operator's session", 'operator', 'main', 200],
    ];
    for (const [name, as, target, outcome] of cases) {
      const path = `/v1/channels/${channelOf(target)}/state`;
      const rest = await viaPort(server)(callers[as], 'GET', path);
      expect(await viaHono(server)(callers[as], 'GET', path), `${name}: Hono`).toEqual(rest);
      expect(await sockets.upgrade(callers[as], channelOf(target)), `${name}: the upgrade`).toEqual(rest);
      expect(rest.code ?? rest.status, name).toBe(outcome);
    }
  });
});

describe('an empty channel id', () => {
  it('names no route: every REST entry point answers 404, and the WebSocket asks for the channel (400)', async () => {
    const cases: Case[] = [
      { name: 'patch', path: '/inputs', body: { scoreA: 1 }, channel: 'empty' },
      { name: 'take', path: '/take', body: {}, channel: 'empty' },
      { name: 'clock', path: '/clocks/gameClock', body: { action: 'start' }, channel: 'empty', as: 'operator' },
    ];
    const answers = await compare(cases, ['port', 'hono']);
    expect(answers.map((a) => a.code)).toEqual(['not_found', 'not_found', 'not_found']);
    // `?channel=` is no channel parameter at all (docs/api.md, "Connecting": 400 for a missing `channel`).
    for (const as of ['root', 'operator'] as const) {
      expect(await sockets.upgrade(callers[as], '')).toMatchObject({ status: 400, code: 'invalid_request' });
    }
  });
});

describe('a dashboard session on a channel it may not see', () => {
  /** REST's answer and the WebSocket upgrade's, for each session and channel. */
  async function both(): Promise<{ name: string; rest: Answer; socket: Answer }[]> {
    const out = [];
    for (const as of ['viewer', 'operator'] as const) {
      for (const [what, channel] of [
        ['an unknown channel', UNKNOWN],
        ['a 101-character id', LONG],
        ['a channel of another workspace', foreignChannel],
      ] as const) {
        const { status, code, detail } = await viaPort(server)(callers[as], 'PATCH', `/v1/channels/${channel}/inputs`, {
          scoreA: 1,
        });
        out.push({
          name: `${as}, ${what}`,
          rest: { status, code, detail },
          socket: await sockets.upgrade(callers[as], channel),
        });
      }
    }
    return out;
  }

  it('is refused 404 not_found over REST and at the WebSocket upgrade alike', async () => {
    for (const { name, rest, socket } of await both()) {
      expect(rest, name).toMatchObject({ status: 404, code: 'not_found' });
      expect(socket, name).toMatchObject({ status: 404, code: 'not_found' });
    }
  });

  // A session not in the channel's workspace gets the guard's answer at the upgrade: it names no workspace.
  it('gets the same detail over REST and at the upgrade (no workspace id leaks)', async () => {
    for (const { name, rest, socket } of await both()) expect(socket, name).toEqual(rest);
  });
});

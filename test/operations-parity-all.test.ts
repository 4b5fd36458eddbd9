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
  socketMessage,
  Sockets,
  viaHono,
  viaPort,
  type Answer,
  type Credential,
  type Send,
} from './helpers/parity-entries.js';
import { startTestServer, type TestServer } from './helpers/server.js';

type Caller = 'root' | 'narrow' | 'locked' | 'foreign' | 'viewer' | 'operator' | 'owner';
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
const BAD = [1];

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

const outcomes = (answers: Answer[]) => answers.map((a) => a.code ?? a.status);

describe('PATCH …/inputs: the fast route, the Hono route and the patch op', () => {
  it('answer every caller the same way', async () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`x${i}`, 1]));
    const cases: [Case, string | number][] = [
      [{ name: 'a good patch', path: '/inputs', body: { scoreA: 2 } }, 200],
      [{ name: 'an array', path: '/inputs', body: BAD }, 'invalid_request'],
      [{ name: 'a string', path: '/inputs', body: 'scoreA' }, 'invalid_request'],
      [{ name: 'an empty object', path: '/inputs', body: {} }, 'invalid_request'],
      [{ name: 'too many inputs', path: '/inputs', body: many }, 'invalid_request'],
      [{ name: 'an unknown input', path: '/inputs', body: { scoreX: 1 } }, 'unknown_input'],
      [{ name: 'a wrong type', path: '/inputs', body: { scoreA: 'three' } }, 'invalid_request'],
      [{ name: 'a prototype name', path: '/inputs', body: JSON.parse('{"__proto__": 1}') as unknown }, 'unknown_input'],
      [{ name: 'a key without inputs:write', path: '/inputs', body: { scoreA: 3 }, as: 'narrow' }, 'forbidden'],
      [{ name: 'the same, with a bad body', path: '/inputs', body: BAD, as: 'narrow' }, 'forbidden'],
      [{ name: 'a key locked to another channel', path: '/inputs', body: { scoreA: 3 }, as: 'locked' }, 'not_found'],
      [{ name: 'the same, with a bad body', path: '/inputs', body: BAD, as: 'locked' }, 'not_found'],
      [{ name: "another workspace's key", path: '/inputs', body: { scoreA: 3 }, as: 'foreign' }, 'not_found'],
      [{ name: 'an unknown channel', path: '/inputs', body: { scoreA: 3 }, channel: 'unknown' }, 'not_found'],
      [
        { name: 'the same, bad body, no permission', path: '/inputs', body: BAD, channel: 'unknown', as: 'narrow' },
        'not_found',
      ],
      [{ name: 'a 101-character id', path: '/inputs', body: { scoreA: 3 }, channel: 'long' }, 'not_found'],
      [
        { name: 'the same, bad body, no permission', path: '/inputs', body: BAD, channel: 'long', as: 'narrow' },
        'not_found',
      ],
      [{ name: "a viewer's session", path: '/inputs', body: { scoreA: 3 }, as: 'viewer' }, 'forbidden'],
      [{ name: 'the same, with a bad body', path: '/inputs', body: BAD, as: 'viewer' }, 'forbidden'],
      [{ name: "an operator's session", path: '/inputs', body: { scoreA: 4 }, as: 'operator' }, 200],
      [
        { name: 'the same, with a wrong type', path: '/inputs', body: { scoreA: true }, as: 'operator' },
        'invalid_request',
      ],
      [
        { name: "an owner's session, unknown input", path: '/inputs', body: { scoreX: 1 }, as: 'owner' },
        'unknown_input',
      ],
    ];
    const answers = await compare(
      cases.map(([c]) => c),
      ['port', 'hono', 'websocket'],
    );
    expect(outcomes(answers)).toEqual(cases.map(([, expected]) => expected));
  });
});

describe('playout, triggers and clocks: the REST route, the Hono route and the WebSocket op', () => {
  it('answer every caller the same way', async () => {
    const cases: [Case, string | number][] = [
      [{ name: 'cue', path: '/preview', body: { sceneId } }, 200],
      [{ name: 'cue an unknown scene', path: '/preview', body: { sceneId: 'sc_nope' } }, 'not_found'],
      [{ name: 'cue without a scene', path: '/preview', body: {} }, 'invalid_request'],
      [{ name: 'cue with an extra field', path: '/preview', body: { sceneId, layer: 2 } }, 'invalid_request'],
      [{ name: 'take a layer out of range', path: '/take', body: { layer: 100 } }, 'invalid_request'],
      [{ name: 'take', path: '/take', body: {} }, 200],
      [{ name: 'take with nothing cued', path: '/take', body: {} }, 'preview_empty'],
      [{ name: 'clear a layer and a scene', path: '/clear', body: { layer: 0, sceneId } }, 'invalid_request'],
      [{ name: 'cut', path: '/program', body: { sceneId } }, 200],
      [{ name: 'clear', path: '/clear', body: {} }, 200],
      [{ name: 'clear without playout:write', path: '/clear', body: {}, as: 'narrow' }, 'forbidden'],
      [{ name: 'the same, with a bad body', path: '/clear', body: { layer: -1 }, as: 'narrow' }, 'forbidden'],
      [{ name: 'a trigger without playout:write', path: '/triggers/flashScoreA', body: {}, as: 'narrow' }, 'forbidden'],
      [
        { name: 'a clock, bad body, no inputs:write', path: '/clocks/gameClock', body: { action: 'x' }, as: 'narrow' },
        'forbidden',
      ],
      [{ name: 'an unknown trigger', path: '/triggers/nope', body: {} }, 'unknown_trigger'],
      [{ name: 'a clock action without ms', path: '/clocks/gameClock', body: { action: 'set' } }, 'invalid_request'],
      [
        { name: 'a clock action with a stray ms', path: '/clocks/gameClock', body: { action: 'start', ms: 1 } },
        'invalid_request',
      ],
      [{ name: 'an unknown clock', path: '/clocks/nope', body: { action: 'start' } }, 'not_found'],
      [{ name: 'an unknown action', path: '/clocks/gameClock', body: { action: 'rewind' } }, 'invalid_request'],
      [{ name: 'take on an unknown channel', path: '/take', body: {}, channel: 'unknown' }, 'not_found'],
      [{ name: 'cue on a 101-character id', path: '/preview', body: { sceneId }, channel: 'long' }, 'not_found'],
      [
        {
          name: 'the same, bad body, no permission',
          path: '/clear',
          body: { layer: -1 },
          channel: 'long',
          as: 'narrow',
        },
        'not_found',
      ],
      [
        { name: 'a clock on a 101-character id', path: '/clocks/gameClock', body: { action: 'x' }, channel: 'long' },
        'not_found',
      ],
      [{ name: 'cue with a key locked elsewhere', path: '/preview', body: { sceneId }, as: 'locked' }, 'not_found'],
      [{ name: "take with another workspace's key", path: '/take', body: {}, as: 'foreign' }, 'not_found'],
      [{ name: "a viewer's take", path: '/take', body: {}, as: 'viewer' }, 'forbidden'],
      [{ name: "a viewer's clear with a bad body", path: '/clear', body: { layer: 100 }, as: 'viewer' }, 'forbidden'],
      [{ name: "a viewer's clock", path: '/clocks/gameClock', body: { action: 'start' }, as: 'viewer' }, 'forbidden'],
      [{ name: "an operator's take, nothing cued", path: '/take', body: {}, as: 'operator' }, 'preview_empty'],
      [{ name: "an operator's cue", path: '/preview', body: { sceneId }, as: 'operator' }, 200],
      [{ name: "an operator's take", path: '/take', body: {}, as: 'operator' }, 200],
      [{ name: "an operator's unknown trigger", path: '/triggers/nope', body: {}, as: 'operator' }, 'unknown_trigger'],
      [{ name: "an operator's clock", path: '/clocks/gameClock', body: { action: 'start' }, as: 'operator' }, 200],
      [
        { name: "an owner's clock, bad action", path: '/clocks/gameClock', body: { action: 'rewind' }, as: 'owner' },
        'invalid_request',
      ],
      [{ name: "an owner's clear", path: '/clear', body: { sceneId }, as: 'owner' }, 200],
    ];
    const answers = await compare(
      cases.map(([c]) => c),
      ['port', 'hono', 'websocket'],
    );
    // The sequence means something: the take worked, the second take found preview empty, and so on.
    expect(outcomes(answers)).toEqual(cases.map(([, expected]) => expected));
  });
});

describe('an incoming hook: its post sets the same inputs and drives the same clocks', () => {
  it('answers as PATCH …/inputs, the clocks route and their ops do', async () => {
    // The hook maps fields by name (no mapping): {"scoreA": 4} is the patch {"scoreA": 4}. Where a value does not
    // fit, the hook's detail names the field and the input it maps to (docs/incoming-hooks.md, "Posting").
    const over = MAX_CLOCK_MS + 1;
    const cases: [Case, string | number][] = [
      [{ name: 'a number', path: '/inputs', body: { scoreA: 4 }, hook: { scoreA: 4 } }, 200],
      [
        { name: 'not a colour', path: '/inputs', body: { homeColor: 'red' }, hook: { homeColor: 'red' } },
        'invalid_request',
      ],
      [{ name: 'back to the default', path: '/inputs', body: { scoreA: null }, hook: { scoreA: null } }, 200],
      [
        {
          name: 'a word for a number',
          path: '/inputs',
          body: { scoreA: 'x' },
          hook: { scoreA: 'x' },
          sameDetail: false,
        },
        'invalid_request',
      ],
      [
        {
          name: 'text over 4 KiB',
          path: '/inputs',
          body: { home: 'x'.repeat(5000) },
          hook: { home: 'x'.repeat(5000) },
          sameDetail: false,
        },
        'invalid_request',
      ],
      [
        {
          name: 'a clock set',
          path: '/clocks/gameClock',
          body: { action: 'set', ms: 300_000 },
          hook: { gameClock: 300_000 },
        },
        200,
      ],
      [
        { name: 'a clock started', path: '/clocks/gameClock', body: { action: 'start' }, hook: { gameClock: true } },
        200,
      ],
      [
        { name: 'a clock stopped', path: '/clocks/gameClock', body: { action: 'stop' }, hook: { gameClock: false } },
        200,
      ],
      [
        {
          name: 'a clock set past 100 h',
          path: '/clocks/gameClock',
          body: { action: 'set', ms: over },
          hook: { gameClock: over },
          sameDetail: false,
        },
        'invalid_request',
      ],
    ];
    const answers = await compare(
      cases.map(([c]) => c),
      ['port', 'hono', 'websocket', 'hook'],
    );
    expect(outcomes(answers)).toEqual(cases.map(([, expected]) => expected));
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
    expect(outcomes(answers)).toEqual(['not_found', 'not_found', 'not_found']);
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

  // Finding: the upgrade resolves the session in the channel's workspace before the guard runs, and answers with the
  // authenticator's "Workspace <id> does not exist." (src/transport/socket-auth.ts, sessionPrincipal): an existing
  // channel of another workspace names that workspace's id, an unknown one names "\u0000missing", where REST answers
  // "Channel <id> does not exist." for all three. ids leak. it.fails until fixed: then make it an `it`.
  it.fails(
    'gets the same detail over REST and at the upgrade (the upgrade names the workspace: ids leak)',
    async () => {
      for (const { name, rest, socket } of await both()) expect(socket, name).toEqual(rest);
    },
  );
});

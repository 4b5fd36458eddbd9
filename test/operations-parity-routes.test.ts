/**
 * Every REST operation a key can call, walked from GET /v1/openapi.json so that a route added later is covered
 * without touching this file (docs/api.md, "The order of checks"). Each request goes through the real port and
 * straight into the Hono app, which must agree:
 * - the same bad input answers the same with an API key and with a dashboard session of the same rights (an owner and
 *   a `*` key, an operator and a key with its permissions, a viewer and a `channels:read` key);
 * - under /v1/channels/{id}, a channel the caller may not see (unknown, an id over 100 characters, empty, outside a
 *   key's lock, another workspace's) answers 404 not_found before anything else is checked: an invalid body and a key
 *   without the permission change nothing (the guard resolves the channel first);
 * - a key without the permission gets 403 before a body error (the guard before validation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createChannelWithScoreboard, expectStatus, type Api, type Channel, type Scene } from './helpers/api.js';
import { addMember, ALL_PERMISSIONS, createKey, newWorkspace, setupOwner } from './helpers/access-fixtures.js';
import { ACCOUNT_ACCESS, bodyFor, fillPath, operations, type Operation } from './helpers/access-openapi.js';
import { viaHono, viaPort, type Answer, type Credential, type Send } from './helpers/parity-entries.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const UNKNOWN = 'ch_0000000000000000000000000000dead';
const LONG = `ch_${'a'.repeat(98)}`;
/** Well-formed ids that name nothing, for the path parameters below a channel or a workspace. */
const NOTHING = {
  sceneId: 'sc_00000000000000000000000000000000',
  keyId: 'key_00000000000000000000000000000000',
  webhookId: 'wh_00000000000000000000000000000000',
  hookId: 'hook_00000000000000000000000000000000',
  sourceId: 'src_00000000000000000000000000000000',
  rundownId: 'rd_00000000000000000000000000000000',
  itemId: 'it_00000000000000000000000000000000',
  scheduleId: 'sch_00000000000000000000000000000000',
  assetId: 'ast_00000000000000000000000000000000',
  graphicId: 'gr_00000000000000000000000000000000',
};
const SUB_IDS = Object.keys(NOTHING).map((name) => `{${name}}`);
const OPERATOR = ['channels:read', 'inputs:write', 'playout:write'];

let server: TestServer;
let root: Api;
let channelId: string;
let definition: unknown;
let ops: Operation[];
let keys: { star: Credential; operator: Credential; viewer: Credential; locked: Credential; foreign: Credential };
let sessions: { owner: Credential; operator: Credential; viewer: Credential };
/** For each permission, a key holding every other one. */
const lacking: Record<string, Credential> = {};
let sends: Record<'port' | 'hono', Send>;

beforeAll(async () => {
  // The walk sends about two thousand requests, refused ones counted too: the limiter's clock moves 1.1 s per
  // decision so that no bucket fills (the limit's place in the order is operations-parity-limits.test.ts's subject).
  let limiterNow = Date.now();
  server = await startTestServer({ limiterClock: () => (limiterNow += 1_100) });
  root = api(server.url, server.key);
  const owner = await setupOwner(server);
  let sceneId: string;
  ({ channelId, sceneId } = await createChannelWithScoreboard(root));
  definition = expectStatus(await root<Scene>('GET', `/v1/channels/${channelId}/scenes/${sceneId}`), 200).definition;
  const other = expectStatus(await root<Channel>('POST', '/v1/channels', { name: 'Other' }), 201).id;
  const key = async (permissions: readonly string[], channels?: string[]): Promise<Credential> => ({
    key: (await createKey(root, permissions, channels)).secret,
  });
  const member = async (role: string): Promise<Credential> => ({
    cookie: (await addMember(server.url, owner.call, `${role}@example.com`, role)).cookie,
  });
  keys = {
    star: { key: server.key },
    operator: await key(OPERATOR),
    viewer: await key(['channels:read']),
    locked: await key(['*'], [other]),
    foreign: { key: (await newWorkspace(server.url, owner)).key },
  };
  sessions = { owner: { cookie: owner.cookie }, operator: await member('operator'), viewer: await member('viewer') };
  for (const permission of ALL_PERMISSIONS)
    lacking[permission] = await key(ALL_PERMISSIONS.filter((p) => p !== permission));
  ops = (await operations(server.url)).filter((op) => (ALL_PERMISSIONS as readonly unknown[]).includes(op.permission));
  sends = { port: viaPort(server), hono: viaHono(server) };
});

afterAll(async () => {
  await server.dispose();
});

const underChannel = (op: Operation) => op.path.startsWith('/channels/{id}');
const GRANTS: Record<'owner' | 'operator' | 'viewer', readonly string[]> = {
  owner: ALL_PERMISSIONS,
  operator: OPERATOR,
  viewer: ['channels:read'],
};

interface Probe {
  /** A bad input on a channel the caller may see, on one it may not, or a good one naming nothing below it. */
  kind: 'bad input' | 'hidden channel' | 'unknown sub-resource';
  label: string;
  path: string;
  body?: unknown;
}

/**
 * What the operation refuses for its shape: a query field it does not know on a GET, a JSON array for a body
 * otherwise (every body is an object, and a route that takes none takes only `{}`).
 */
function badInput(op: Operation, channel: string, label: string): Probe {
  const path = fillPath(op, { id: channel, ...NOTHING });
  const kind = channel === channelId ? 'bad input' : 'hidden channel';
  return op.method === 'GET' ? { kind, label, path: `${path}?bogus=1` } : { kind, label, path, body: [1] };
}

/** Sends the probe through both entry points; throws when they disagree. */
async function ask(cred: Credential, op: Operation, probe: Probe): Promise<Answer> {
  const viaPortAnswer = await sends.port(cred, op.method, probe.path, probe.body);
  const viaHonoAnswer = await sends.hono(cred, op.method, probe.path, probe.body);
  expect(viaHonoAnswer, `${op.name}, ${probe.label}: Hono vs the port`).toEqual(viaPortAnswer);
  return viaPortAnswer;
}

/** The answer docs/api.md, "The order of checks" gives a caller with these grants. */
function expected(op: Operation, probe: Probe, grants: readonly string[]): Pick<Answer, 'status' | 'code'> {
  if (probe.kind === 'hidden channel') return { status: 404, code: 'not_found' };
  if (!grants.includes(op.permission as string)) return { status: 403, code: 'forbidden' };
  return probe.kind === 'bad input' ? { status: 400, code: 'invalid_request' } : { status: 404, code: 'not_found' };
}

describe('the route table', () => {
  it('holds every use case a key can call, and nothing the walk does not know', async () => {
    const names = ops.map((op) => op.name);
    for (const name of [
      'POST /channels',
      'PATCH /channels/{id}',
      'PUT /channels/{id}/scenes/{sceneId}',
      'GET /channels/{id}/state',
      'POST /keys',
      'POST /webhooks/{webhookId}/ping',
      'PATCH /channels/{id}/incoming-hooks/{hookId}',
      'GET /events',
      'GET /templates',
    ])
      expect(names).toContain(name);
    for (const op of await operations(server.url)) {
      expect([...ALL_PERMISSIONS, ...ACCOUNT_ACCESS], op.name).toContain(op.permission);
    }
  });
});

describe('a key and a session of the same rights', () => {
  it('get the same answer to the same bad input, on every operation', { timeout: 120_000 }, async () => {
    for (const op of ops) {
      const probes = [badInput(op, channelId, 'bad input')];
      if (underChannel(op)) probes.push(badInput(op, UNKNOWN, 'unknown id'), badInput(op, LONG, '101-character id'));
      if (SUB_IDS.some((p) => op.path.includes(p))) {
        const path = fillPath(op, { id: channelId, ...NOTHING });
        probes.push({
          kind: 'unknown sub-resource',
          label: 'a good input naming nothing',
          path,
          body: bodyFor(op, { id: channelId, sceneId: '' }, definition),
        });
      }
      for (const role of ['owner', 'operator', 'viewer'] as const) {
        const key = role === 'owner' ? keys.star : keys[role];
        for (const probe of probes) {
          const withKey = await ask(key, op, probe);
          const withSession = await ask(sessions[role], op, probe);
          expect(withSession, `${op.name}, ${probe.label}: ${role} session vs key`).toEqual(withKey);
          expect(withKey, `${op.name}, ${probe.label}, ${role}`).toMatchObject(expected(op, probe, GRANTS[role]));
        }
      }
    }
  });
});

describe('the guard, before anything else', () => {
  it('answers 404 under /v1/channels/{id} for a channel the caller may not see, whatever the body or permission', async () => {
    const channelOps = ops.filter(underChannel);
    expect(channelOps.length).toBeGreaterThan(20);
    for (const op of channelOps) {
      const without = lacking[op.permission as string]!;
      const cases: [string, string, Credential][] = [
        ['an unknown id', UNKNOWN, keys.star],
        ['an unknown id, a key without the permission', UNKNOWN, without],
        ['a 101-character id', LONG, keys.star],
        ['a 101-character id, a key without the permission', LONG, without],
        ["a 101-character id, a viewer's session", LONG, sessions.viewer],
        ['a key locked to another channel', channelId, keys.locked],
        ["another workspace's key", channelId, keys.foreign],
      ];
      for (const [label, channel, cred] of cases) {
        const answer = await ask(cred, op, badInput(op, channel, label));
        const detail = `Channel ${channel} does not exist.`;
        expect(answer, `${op.name}, ${label}`).toEqual({ status: 404, code: 'not_found', detail });
      }
      // An empty id names no route at all.
      const empty = await ask(keys.star, op, badInput(op, '', 'an empty id'));
      expect(empty, `${op.name}, an empty id`).toMatchObject({ status: 404, code: 'not_found' });
    }
  });

  it('answers 403 to a key without the permission before looking at the body', async () => {
    for (const op of ops) {
      const answer = await ask(lacking[op.permission as string]!, op, badInput(op, channelId, 'bad input'));
      expect(answer, op.name).toMatchObject({ status: 403, code: 'forbidden', permission: op.permission });
    }
  });
});

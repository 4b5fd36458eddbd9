/**
 * The permission matrix (docs/api.md, "Authentication"), walked from the route table in the OpenAPI document: every
 * operation declares a permission and a bucket; every route refuses a key without its permission (403) and admits a key
 * with only that one; a channel-locked key gets 404 for every route on a channel outside its lock. The same for
 * WebSocket ops.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiApp } from '../src/api/app.js';
import { createAuthenticator } from '../src/auth/authenticate.js';
import { MemoryLoginThrottle } from '../src/limits/memory-login-throttle.js';
import { MemoryRateLimiter } from '../src/limits/memory-rate-limiter.js';
import { DEFAULT_LIMITS } from '../src/limits/resource-limits.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import {
  addScoreboard,
  api,
  createChannelWithScoreboard,
  expectStatus,
  type Api,
  type Channel,
  type List,
  type Scene,
} from './helpers/api.js';
import { ALL_PERMISSIONS, anonymous, createKey } from './helpers/access-fixtures.js';
import {
  ACCOUNT_ACCESS,
  bodyFor,
  expectedBucket,
  expectedPermission,
  fillPath,
  operations,
  sideEffectsLast,
  type Ids,
  type Operation,
  incomingHookOf,
  sourceOf,
  showOf,
  WEBHOOK_ENV,
  WEBHOOK_URL,
} from './helpers/access-openapi.js';
import { solidPng, uploadForm } from './helpers/asset-files.js';
import { expectProblem } from './helpers/problem.js';
import { ografZip, uploadZip } from './helpers/ograf-packages.js';
import { makeDataDir, startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient, UpgradeRefused } from './helpers/ws-client.js';

let server: TestServer;
let root: Api;
let ops: Operation[];
let ids: Ids;
let definition: unknown;
const clients: RenderClient[] = [];

beforeEach(async () => {
  server = await startTestServer({}, WEBHOOK_ENV);
  root = api(server.url, server.key);
  const { channelId, sceneId } = await createChannelWithScoreboard(root);
  const spare = await createKey(root, ['keys:manage']);
  const webhook = expectStatus(await root<{ id: string }>('POST', '/v1/webhooks', { url: WEBHOOK_URL }), 201);
  ids = {
    id: channelId,
    sceneId,
    keyId: spare.id,
    userId: 'usr_0000000000000000000000000000000a',
    invitationId: 'inv_0000000000000000000000000000000a',
    webhookId: webhook.id,
    ...(await incomingHookOf(root, channelId)),
    ...(await sourceOf(root, channelId)),
    ...(await showOf(root, channelId, sceneId)),
    assetId: String((await uploadForm(server.url, server.key, solidPng(1, 1, [0, 0, 0, 255]), 'dot.png')).body.id),
    graphicId: (await uploadZip(server.url, server.key, ografZip())).body.data[0]!.id,
  };
  definition = expectStatus(await root<Scene>('GET', `/v1/channels/${channelId}/scenes/${sceneId}`), 200).definition;
  ops = await operations(server.url);
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

/** Routes whose fixture the operation itself refuses once admitted (see below), with the code it answers. */
const ANSWERED_BY_THE_OPERATION: Record<string, string> = {
  'POST /channels/{id}/continue': 'unknown_trigger',
  'PATCH /channels/{id}/rundowns/{rundownId}': 'version_conflict',
};

const isPermission = (p: unknown): p is (typeof ALL_PERMISSIONS)[number] =>
  (ALL_PERMISSIONS as readonly unknown[]).includes(p);
const send = (call: Api, op: Operation, target: Ids = ids) =>
  op.name === 'POST /assets'
    ? call(op.method, fillPath(op, target), undefined, { raw: TINY_SVG, headers: { 'content-type': 'image/svg+xml' } })
    : op.name === 'POST /graphics'
      ? call(op.method, fillPath(op, target), undefined, {
          raw: ografZip(),
          headers: { 'content-type': 'application/zip' },
        })
      : call(op.method, fillPath(op, target), bodyFor(op, target, definition));
/** An upload is a file, not JSON. */
const TINY_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';

describe('the route table', () => {
  it('has the permission and rate-limit bucket docs/api.md prescribes on every operation', () => {
    expect(ops.length).toBeGreaterThan(20);
    const wrong = ops
      .filter(
        (op) =>
          op.permission !== expectedPermission(op.method, op.path) || op.bucket !== expectedBucket(op.method, op.path),
      )
      .map((op) => `${op.name}: ${String(op.permission)} / ${String(op.bucket)}`);
    expect(wrong).toEqual([]);
    for (const op of ops) expect([...ALL_PERMISSIONS, ...ACCOUNT_ACCESS]).toContain(op.permission);
  });

  it('answers 401 unauthorized on every non-public operation without a credential or with an unknown key', async () => {
    const guarded = ops.filter((op) => op.permission !== 'public');
    const stranger = api(server.url, 'onair_sk_NotAKeyNotAKeyNotAKeyNotAKey0000');
    for (const op of guarded) {
      expectProblem(await send(anonymous(server.url), op), 401, 'unauthorized');
      expectProblem(await send(stranger, op), 401, 'unauthorized');
    }
  });

  it('serves no /v1 route that the document (and so this table) leaves out', async () => {
    const dir = makeDataDir();
    const store = new SqliteStore({ dataDir: dir, synchronous: 'normal' });
    try {
      const app = createApiApp(
        {
          engine: server.handle.engine,
          store,
          limiter: new MemoryRateLimiter(),
          loginThrottle: new MemoryLoginThrottle(),
          auth: createAuthenticator(store),
          logger: server.handle.logger,
          baseUrl: () => server.url,
          health: () => 'ready',
          renderer: { dir, html: null },
          metrics: () => '',
          metricsToken: undefined,
          sessionTtlSeconds: 60,
          runner: server.handle.runner,
          secrets: SecretBox.fromMaterial('a test key of at least thirty-two characters'),
          limits: DEFAULT_LIMITS,
        },
        dir,
      );
      const served = new Set(
        app.routes
          .filter((r) => r.method !== 'ALL' && r.path.startsWith('/v1/') && r.path !== '/v1/openapi.json')
          .map((r) => `${r.method} ${r.path.slice(3).replace(/:(\w+)/g, '{$1}')}`),
      );
      expect([...served].filter((name) => !ops.some((op) => op.name === name))).toEqual([]);
      expect(served.size).toBe(ops.length);
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('permissions', () => {
  it('refuses every route to a key holding every permission but its own with 403 forbidden', async () => {
    const needed = [...new Set(ops.map((op) => op.permission).filter(isPermission))];
    const lacking = new Map<string, Api>();
    for (const p of needed) {
      const key = await createKey(
        root,
        ALL_PERMISSIONS.filter((q) => q !== p),
      );
      lacking.set(p, api(server.url, key.secret));
    }
    for (const op of ops.filter((o) => isPermission(o.permission))) {
      const res = await send(lacking.get(op.permission as string)!, op);
      const problem = expectProblem(res, 403, 'forbidden');
      expect(problem.permission, op.name).toBe(op.permission);
    }
    // Nothing was changed by the refused calls.
    expect(expectStatus(await root<List<Channel>>('GET', '/v1/channels'), 200).data).toHaveLength(1);
  });

  it('admits every route for a key holding only the permission it declares', async () => {
    const only = new Map<string, Api>();
    for (const p of new Set(ops.map((op) => op.permission).filter(isPermission))) {
      only.set(p, api(server.url, (await createKey(root, [p])).secret));
    }
    const answers: string[] = [];
    for (const op of sideEffectsLast(ops.filter((o) => isPermission(o.permission)))) {
      const res = await send(only.get(op.permission as string)!, op);
      answers.push(`${op.name} → ${res.status}`);
      // Admitted, and answered by the operation itself: the scoreboard on air has no `next` step to continue to; an
      // edit names a version that earlier routes here (an item added, …) have moved on.
      const answered = ANSWERED_BY_THE_OPERATION[op.name];
      if (answered) {
        expect(res.body, op.name).toMatchObject({ code: answered });
        continue;
      }
      expect(res.status, `${op.name}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    }
    expect(answers.length).toBeGreaterThan(15);
  });
});

describe('channel locks', () => {
  let locked: Api;
  let foreign: Ids;

  beforeEach(async () => {
    const other = expectStatus(await root<Channel>('POST', '/v1/channels', { name: 'Other' }), 201);
    foreign = { ...ids, id: other.id, sceneId: (await addScoreboard(root, other.id)).id };
    locked = api(server.url, (await createKey(root, ALL_PERMISSIONS, [ids.id])).secret);
  });

  it('answers 404 not_found on every channel route for a channel outside the lock, and changes nothing', async () => {
    const channelOps = ops.filter((op) => op.path.startsWith('/channels/{id}'));
    expect(channelOps.length).toBeGreaterThan(10);
    for (const op of channelOps) {
      const problem = expectProblem(await send(locked, op, foreign), 404, 'not_found');
      expect(problem.detail, op.name).not.toContain('lock');
    }
    const state = expectStatus(
      await root<{ inputs: Record<string, unknown> }>('GET', `/v1/channels/${foreign.id}/state`),
      200,
    );
    expect(state.inputs).toMatchObject({ scoreA: 0 });
  });

  it('admits the channel inside the lock and lists only it', async () => {
    expectStatus(await locked('PATCH', `/v1/channels/${ids.id}/inputs`, { scoreA: 2 }), 200);
    const list = expectStatus(await locked<List<Channel>>('GET', '/v1/channels'), 200);
    expect(list.data.map((c) => c.id)).toEqual([ids.id]);
  });

  it('never sees the id of a channel outside its lock, in any GET it may call', async () => {
    const lockedElsewhere = await createKey(root, ['channels:read'], [foreign.id]);
    const target = { ...ids, keyId: lockedElsewhere.id };
    const leaks: string[] = [];
    for (const op of ops.filter((o) => o.method === 'GET' && o.permission !== 'session' && o.permission !== 'owner')) {
      const res = await send(locked, op, target);
      if (JSON.stringify(res.body).includes(foreign.id)) leaks.push(`${op.name} → ${res.status}`);
    }
    expect(leaks).toEqual([]);
  });

  it('cannot create channels (docs/api.md, "Authentication": a locked key acts only on its channels)', async () => {
    expectProblem(await locked('POST', '/v1/channels', { name: 'Escape' }), 403, 'forbidden');
    const all = expectStatus(await root<List<Channel>>('GET', '/v1/channels'), 200);
    expect(all.data.map((c) => c.name)).not.toContain('Escape');
  });
});

describe('WebSocket ops', () => {
  /** Every client op (docs/api.md, "Real-time WebSocket") and the permission it needs, as for its REST route. */
  const WS_OPS: Record<string, { permission: string; message: (sceneId: string) => object }> = {
    patch: { permission: 'inputs:write', message: () => ({ op: 'patch', inputs: { scoreB: 4 } }) },
    preview: { permission: 'playout:write', message: (sceneId) => ({ op: 'preview', sceneId }) },
    take: { permission: 'playout:write', message: () => ({ op: 'take' }) },
    program: { permission: 'playout:write', message: (sceneId) => ({ op: 'program', sceneId }) },
    clear: { permission: 'playout:write', message: () => ({ op: 'clear' }) },
  };

  const connect = async (permissions: readonly string[], channelIds?: string[], channel = ids.id) => {
    const key = await createKey(root, permissions, channelIds);
    const client = await RenderClient.connect(server.url, channel, { key: key.secret });
    clients.push(client);
    await client.next((m) => m.type === 'snapshot');
    return client;
  };
  const run = async (client: RenderClient, op: string) => {
    const id = `${op}-${client.mark()}`;
    client.send({ ...WS_OPS[op]!.message(ids.sceneId), id });
    return client.reply(id);
  };

  it('refuses each op to a key without its permission and admits it with only that one', async () => {
    for (const [op, { permission }] of Object.entries(WS_OPS)) {
      const without = await connect(ALL_PERMISSIONS.filter((p) => p !== permission));
      expect(await run(without, op), op).toMatchObject({ type: 'error', code: 'forbidden' });
      const withIt = await connect(['channels:read', permission]);
      const reply = await run(withIt, op);
      expect(reply, `${op}: ${JSON.stringify(reply)}`).toMatchObject({ type: 'ack' });
    }
  });

  it('refuses the upgrade without channels:read (403) and outside a lock or workspace (404)', async () => {
    const other = expectStatus(await root<Channel>('POST', '/v1/channels', { name: 'Other' }), 201);
    const refusal = async (permissions: readonly string[], channelIds?: string[], channel = ids.id) => {
      const key = await createKey(root, permissions, channelIds);
      const err: unknown = await RenderClient.connect(server.url, channel, { key: key.secret }).then(
        (c) => (clients.push(c), new Error('accepted')),
        (e: unknown) => e,
      );
      if (!(err instanceof UpgradeRefused)) throw err;
      return err.status;
    };
    expect(await refusal(['inputs:write', 'playout:write'])).toBe(403);
    expect(await refusal(['*'], [ids.id], other.id)).toBe(404);
    expect(await refusal(['*'], undefined, 'ch_doesnotexist')).toBe(404);
  });
});

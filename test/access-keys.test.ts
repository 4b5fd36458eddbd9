/**
 * API keys (docs/api.md, "Authentication"): the secret is shown once and stored only as a SHA-256 hash; lastUsedAt;
 * revocation works at once; a key can never mint (or revoke) a key with more permissions or channels than its own.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, createChannelWithScoreboard, expectStatus, type Api, type List } from './helpers/api.js';
import { ALL_PERMISSIONS, createKey, queryDb, type KeyCreated } from './helpers/access-fixtures.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient } from './helpers/ws-client.js';

let server: TestServer;
let root: Api;
let channelA: string;
let channelB: string;

beforeEach(async () => {
  server = await startTestServer();
  root = api(server.url, server.key);
  channelA = (await createChannelWithScoreboard(root, 'A')).channelId;
  channelB = (await createChannelWithScoreboard(root, 'B')).channelId;
});

afterEach(async () => {
  await server.dispose();
});

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const keyApi = (key: KeyCreated) => api(server.url, key.secret);

describe('creating, listing and revoking', () => {
  it('shows the secret once, in the onair_sk_ format, and never again', async () => {
    const key = await createKey(root, ['channels:read'], [channelA]);
    expect(key.secret).toMatch(/^onair_sk_[A-Za-z0-9]{32,}$/);
    expect(key).toMatchObject({ permissions: ['channels:read'], channelIds: [channelA], lastUsedAt: null });
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeLessThan(key.secret.length / 2);
    const list = await root<List<Record<string, unknown>>>('GET', '/v1/keys');
    const one = await root<Record<string, unknown>>('GET', `/v1/keys/${key.id}`);
    expect(expectStatus(list, 200).data.map((k) => k.id)).toContain(key.id);
    for (const res of [list, one]) {
      expect(JSON.stringify(res.body)).not.toContain(key.secret);
      expect(JSON.stringify(res.body)).not.toContain('"secret"');
    }
  });

  it('stores only the SHA-256 of the secret', async () => {
    const key = await createKey(root, ['*']);
    const rows = queryDb<Record<string, unknown>>(server.dir, 'SELECT * FROM api_keys');
    const row = rows.find((r) => r.id === key.id);
    expect(row?.hash).toBe(sha256(key.secret));
    expect(JSON.stringify(rows)).not.toContain(key.secret);
    const all = queryDb<Record<string, unknown>>(server.dir, "SELECT name FROM sqlite_master WHERE type = 'table'");
    for (const { name } of all) {
      const dump = JSON.stringify(queryDb(server.dir, `SELECT * FROM "${String(name)}"`));
      expect(dump, `table ${String(name)}`).not.toContain(key.secret.slice(9));
    }
  });

  it('records lastUsedAt when the key is used', async () => {
    const key = await createKey(root, ['channels:read']);
    const before = Date.now();
    expectStatus(await keyApi(key)('GET', '/v1/channels'), 200);
    const seen = expectStatus(await root<KeyCreated>('GET', `/v1/keys/${key.id}`), 200);
    expect(seen.lastUsedAt).not.toBeNull();
    expect(Date.parse(seen.lastUsedAt!)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(seen.lastUsedAt!)).toBeLessThanOrEqual(Date.now());
  });

  it('stops a revoked key at once: 401 over HTTP (fast PATCH path too), its WebSockets closed with 4001', async () => {
    const key = await createKey(root, ['channels:read', 'inputs:write']);
    expectStatus(await keyApi(key)('GET', '/v1/channels'), 200);
    const ws = await RenderClient.connect(server.url, channelA, { key: key.secret });
    await ws.next((m) => m.type === 'snapshot');
    // PATCH …/inputs is answered by the transport's fast path, which keeps recently used keys in memory.
    const patchInputs = () => keyApi(key)('PATCH', `/v1/channels/${channelA}/inputs`, { nothingHere: 1 });
    expect((await patchInputs()).status).not.toBe(401);
    expect((await patchInputs()).status).not.toBe(401);
    expectStatus(await root('DELETE', `/v1/keys/${key.id}`), 204);
    expectProblem(await keyApi(key)('GET', '/v1/channels'), 401, 'unauthorized');
    expectProblem(await patchInputs(), 401, 'unauthorized');
    expect((await ws.closed).code).toBe(4001);
    const seen = expectStatus(await root<KeyCreated>('GET', `/v1/keys/${key.id}`), 200);
    expect(seen.revokedAt).not.toBeNull();
  });

  it('says who the key is on GET /v1/me', async () => {
    const key = await createKey(root, ['channels:read', 'inputs:write'], [channelA]);
    const me = expectStatus(await keyApi(key)<Record<string, unknown>>('GET', '/v1/me'), 200);
    expect(me).toMatchObject({ key: { id: key.id }, channelIds: [channelA] });
    expect([...(me.permissions as string[])].sort()).toEqual(['channels:read', 'inputs:write']);
  });
});

describe('escalation', () => {
  it('refuses to mint permissions the caller does not hold (403), and allows a subset', async () => {
    const manager = keyApi(await createKey(root, ['channels:read', 'keys:manage']));
    for (const permissions of [['channels:write'], ['*'], ['channels:read', 'playout:write']]) {
      const problem = expectProblem(await manager('POST', '/v1/keys', { name: 'up', permissions }), 403, 'forbidden');
      expect(problem.detail).toMatch(/permission|grant/i);
    }
    await createKey(manager, ['channels:read']);
    await createKey(manager, ['channels:read', 'keys:manage']);
  });

  it('refuses `*` to a key holding every named permission but not `*`', async () => {
    const almost = keyApi(await createKey(root, ALL_PERMISSIONS));
    expectProblem(await almost('POST', '/v1/keys', { name: 'star', permissions: ['*'] }), 403, 'forbidden');
    await createKey(almost, ALL_PERMISSIONS);
  });

  it('keeps a minted key within its creator through a chain', async () => {
    const first = keyApi(await createKey(root, ['channels:read', 'inputs:write', 'keys:manage']));
    const second = keyApi(await createKey(first, ['channels:read', 'keys:manage']));
    expectProblem(await second('POST', '/v1/keys', { name: 'x', permissions: ['inputs:write'] }), 403, 'forbidden');
  });

  it('lets a locked key mint only keys locked to a subset of its channels', async () => {
    const locked = keyApi(await createKey(root, ['*'], [channelA]));
    for (const channelIds of [undefined, [channelB], [channelA, channelB]]) {
      const body = { name: 'wider', permissions: ['channels:read'], ...(channelIds ? { channelIds } : {}) };
      expectProblem(await locked('POST', '/v1/keys', body), 403, 'forbidden');
    }
    const narrow = await createKey(locked, ['channels:read'], [channelA]);
    expect(narrow.channelIds).toEqual([channelA]);
    // Nothing was created by the refused attempts.
    const keys = expectStatus(await root<List<KeyCreated>>('GET', '/v1/keys?limit=100'), 200).data;
    expect(keys.filter((k) => k.name.startsWith('wider'))).toEqual([]);
  });

  it('pages a channel-locked caller through all the keys it may see, however many it may not', async () => {
    const locked = await createKey(root, ['*'], [channelA]);
    const visible = [locked.id];
    for (let i = 0; i < 4; i++) {
      await createKey(root, ['channels:read']);
      visible.push((await createKey(root, ['channels:read'], [channelA])).id);
    }
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const path = `/v1/keys?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page: List<KeyCreated> = expectStatus(await keyApi(locked)<List<KeyCreated>>('GET', path), 200);
      expect(page.data.length).toBe(page.nextCursor === null ? page.data.length : 2);
      seen.push(...page.data.map((k) => k.id));
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(visible);
  });

  it('refuses to revoke a key beyond the caller (revoking is as strong as minting)', async () => {
    const strong = await createKey(root, ['*']);
    const unlocked = await createKey(root, ['channels:read']);
    const manager = keyApi(await createKey(root, ['keys:manage']));
    const locked = keyApi(await createKey(root, ['*'], [channelA]));
    expectProblem(await manager('DELETE', `/v1/keys/${strong.id}`), 403, 'forbidden');
    // A locked key does not even see keys reaching beyond its channels: the 404 of a missing key.
    expectProblem(await locked('DELETE', `/v1/keys/${unlocked.id}`), 404, 'not_found');
    expectStatus(await keyApi(strong)('GET', '/v1/channels'), 200);
    expectStatus(await keyApi(unlocked)('GET', '/v1/channels'), 200);
  });
});

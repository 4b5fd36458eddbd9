/**
 * Idempotency-Key on POST (docs/api.md, "Idempotent requests"): a retried create answers the first response and
 * creates nothing more; the same key for another request is 409 conflict; keys are per caller; answers survive a
 * restart and are not stored in the clear; a request cut off by a crash leaves its key answering 409.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { addMember, createKey, queryDb, setupOwner, type KeyCreated } from './helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, expectStatus, type Api, type Channel, type List } from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;
const key = (k: string) => ({ headers: { 'Idempotency-Key': k } });
/** The server's log lines at warn and above. */
let logLines: string[];

beforeEach(async () => {
  logLines = [];
  const logger = createLogger('warn', { write: (line: string) => void logLines.push(line) });
  server = await startTestServer({ logger });
  call = api(() => server.url, server.key);
});
afterEach(async () => {
  await server.dispose();
});

const channelNames = async (caller: Api = call) =>
  expectStatus(await caller<List<Channel>>('GET', '/v1/channels'), 200).data.map((c) => c.name);

it('answers a repeated create with the first response and creates one channel', async () => {
  const first = await call<Channel>('POST', '/v1/channels', { name: 'Main' }, key('create-main-1'));
  expect(first.status).toBe(201);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const again = await call<Channel>('POST', '/v1/channels', { name: 'Main' }, key('create-main-1'));
  expect(again.status).toBe(201);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.headers.get('content-type')).toMatch(/application\/json/);
  expect(again.headers.get('x-request-id')).toBeTruthy();
  expect(again.body).toEqual(first.body);
  expect(await channelNames()).toEqual(['Main']);
  // Without a key, or with another one, it is a new request.
  expectStatus(await call('POST', '/v1/channels', { name: 'Main' }, key('create-main-2')), 201);
  expectStatus(await call('POST', '/v1/channels', { name: 'Main' }), 201);
  expect(await channelNames()).toEqual(['Main', 'Main', 'Main']);
});

it('refuses the same key for another body or another path with 409 conflict', async () => {
  expectStatus(await call('POST', '/v1/channels', { name: 'Main' }, key('k1')), 201);
  const otherBody = expectProblem(await call('POST', '/v1/channels', { name: 'Other' }, key('k1')), 409, 'conflict');
  expect(otherBody.detail).toMatch(/different request/);
  const { id } = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'B' }), 201);
  expectProblem(await call('POST', `/v1/channels/${id}/output-token`, undefined, key('k1')), 409, 'conflict');
  expect(await channelNames()).toEqual(['Main', 'B']);
});

it('keeps keys per caller: the same key from another API key is its own request', async () => {
  const other = api(() => server.url, (await createKey(call, ['channels:write', 'channels:read'])).secret);
  expectStatus(await call('POST', '/v1/channels', { name: 'Mine' }, key('shared')), 201);
  const theirs = await other<Channel>('POST', '/v1/channels', { name: 'Theirs' }, key('shared'));
  expect(theirs.status).toBe(201);
  expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  expect(await channelNames()).toEqual(['Mine', 'Theirs']);
});

it('does not keep a refused request: after a 400 the same key runs the corrected request', async () => {
  expectProblem(await call('POST', '/v1/channels', { name: 'Main', fps: 61 }, key('fix-me')), 400, 'invalid_request');
  // A different body is fine: nothing was kept for the key.
  const fixed = await call('POST', '/v1/channels', { name: 'Main', fps: 50 }, key('fix-me'));
  expect(fixed.status).toBe(201);
  expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  expect(await channelNames()).toEqual(['Main']);
});

it('creates once when the same request arrives twice at the same time', async () => {
  const both = await Promise.all([
    call('POST', '/v1/channels', { name: 'Race' }, key('race')),
    call('POST', '/v1/channels', { name: 'Race' }, key('race')),
  ]);
  const statuses = both.map((r) => r.status).sort();
  // The second either waits for nothing and is told the first is still running, or replays its answer.
  expect([
    [201, 201],
    [201, 409],
  ]).toContainEqual(statuses);
  expect(await channelNames()).toEqual(['Race']);
});

it('replays an API key secret after a restart, and keeps it sealed in the database', async () => {
  const created = expectStatus(
    await call<{ id: string; secret: string }>(
      'POST',
      '/v1/keys',
      { name: 'Scorekeeper', permissions: ['inputs:write'] },
      key('mint-1'),
    ),
    201,
  );
  await server.restart();
  const again = await call<{ id: string; secret: string }>(
    'POST',
    '/v1/keys',
    { name: 'Scorekeeper', permissions: ['inputs:write'] },
    key('mint-1'),
  );
  expect(again.status).toBe(201);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body).toEqual(created);
  const keys = expectStatus(await call<List<{ name: string }>>('GET', '/v1/keys'), 200).data;
  expect(keys.filter((k) => k.name === 'Scorekeeper')).toHaveLength(1);
  const rows = queryDb<{ body: string }>(server.dir, 'SELECT body FROM idempotency_keys');
  expect(rows).toHaveLength(1);
  expect(rows[0]!.body).not.toContain(created.secret);
  for (const file of fs.readdirSync(server.dir).filter((f) => f.startsWith('onair.db'))) {
    expect(fs.readFileSync(path.join(server.dir, file)).includes(created.secret)).toBe(false);
  }
});

it('answers 409 for a key whose request was cut off by a crash, rather than risk creating twice', async () => {
  await server.stop();
  // What a kill -9 between the claim and the answer leaves: a claim of a process that is gone.
  const store = new SqliteStore({ dataDir: server.dir, synchronous: 'normal' });
  const keyId = queryDb<{ id: string }>(server.dir, 'SELECT id FROM api_keys')[0]!.id;
  const now = new Date().toISOString();
  await store.idempotency.claim({
    scope: `key:${keyId}`,
    key: 'cut-off',
    fingerprint: 'whatever it was',
    owner: 'a-process-that-died',
    now,
    expiredBefore: '2000-01-01T00:00:00.000Z',
  });
  await store.close();
  await server.restart();
  const res = expectProblem(await call('POST', '/v1/channels', { name: 'Cut off' }, key('cut-off')), 409, 'conflict');
  expect(res.detail).toMatch(/cut off by a server restart/);
  expect(await channelNames()).toEqual([]);
});

it('refuses a key that is not 1–255 visible ASCII characters', async () => {
  for (const bad of ['x'.repeat(256), 'has space', 'tab\there']) {
    const res = await call('POST', '/v1/channels', { name: 'A' }, { headers: { 'Idempotency-Key': bad } });
    const problem = expectProblem(res, 400, 'invalid_request');
    expect(problem.errors?.[0]?.path).toBe('Idempotency-Key');
  }
  expect(await channelNames()).toEqual([]);
});

it('authorises a replay as the caller is now: a demoted owner is refused 403, a revoked key 401', async () => {
  const first = await setupOwner(server);
  const other = await addMember(server.url, first.call, 'other-owner@example.com', 'owner');
  const operator = await addMember(server.url, first.call, 'operator@example.com', 'operator');
  const mint = { name: 'Everything', permissions: ['*'] };
  const minted = expectStatus(await first.call<KeyCreated>('POST', '/v1/keys', mint, key('mint-star')), 201);
  const { channelId, sceneId } = await createChannelWithScoreboard(first.call);
  const take = (caller: Api) => caller('POST', `/v1/channels/${channelId}/preview`, { sceneId }, key('cue-it'));
  expectStatus(await take(operator.call), 200);

  // The other owner makes both of them viewers: neither may mint a key or cue a scene any more.
  for (const who of [first, operator]) {
    expectStatus(await other.call('PATCH', `/v1/members/${who.userId}`, { role: 'viewer' }), 200);
  }
  const replayed = await first.call('POST', '/v1/keys', mint, key('mint-star'));
  expectProblem(replayed, 403, 'forbidden');
  expect(JSON.stringify(replayed.body)).not.toContain(minted.secret);
  expectProblem(await take(operator.call), 403, 'forbidden');

  // A key revoked since its create no longer gets the answer either.
  const creator = await createKey(call, ['channels:write']);
  const asCreator = api(() => server.url, creator.secret);
  expectStatus(await asCreator('POST', '/v1/channels', { name: 'By key' }, key('by-key')), 201);
  expectStatus(await call('DELETE', `/v1/keys/${creator.id}`), 204);
  expectProblem(await asCreator('POST', '/v1/channels', { name: 'By key' }, key('by-key')), 401, 'unauthorized');
});

it('runs a request as new, with a warning in the log, when its kept answer cannot be opened (restored without secret.key)', async () => {
  const first = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Before' }, key('lost-key')), 201);
  await server.stop();
  // What a restore onto a machine without the old secret.key leaves: a new key that cannot open the kept answers.
  fs.rmSync(path.join(server.dir, 'secret.key'));
  await server.restart();
  const again = await call<Channel>('POST', '/v1/channels', { name: 'Before' }, key('lost-key'));
  expect(again.status).toBe(201);
  expect(again.headers.get('idempotent-replayed')).toBeNull();
  expect(again.body.id).not.toBe(first.id);
  const warning = logLines.map((l) => JSON.parse(l) as { msg: string }).find((l) => /cannot be opened/.test(l.msg));
  expect(warning).toBeDefined();
  // The new answer is the one kept from now on.
  const replay = await call<Channel>('POST', '/v1/channels', { name: 'Before' }, key('lost-key'));
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(again.body);
  expect(await channelNames()).toEqual(['Before', 'Before']);
});

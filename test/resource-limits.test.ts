/**
 * Resource limits (docs/api.md, "Limits"): each count limit answers 422 limit_reached, names its setting and
 * creates nothing; deleting (or revoking) makes room. Creates also count per account, over all its workspaces, and
 * per client address, so new workspaces are no way around the creates bucket. Small limits are set through the
 * ONAIR_LIMIT_* environment, as an operator would.
 */
import { afterEach, expect, it } from 'vitest';
import { createKey, newWorkspace, setupOwner, startServerWith, type AccessServer } from './helpers/access-fixtures.js';
import { api, expectStatus, type Channel, type List } from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';

let server: AccessServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

async function start(env: Record<string, string>) {
  server = await startServerWith(env);
  return { server, call: api(server.url, server.key) };
}

function expectLimit(res: Parameters<typeof expectProblem>[0], setting: string, limit: number) {
  const problem = expectProblem(res, 422, 'limit_reached');
  expect(problem).toMatchObject({ setting, limit });
  expect(problem.detail).toContain(String(limit));
}

it('holds channels per workspace; a deletion makes room', async () => {
  const { call } = await start({ ONAIR_LIMIT_CHANNELS_PER_WORKSPACE: '2' });
  const a = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'A' }), 201);
  expectStatus(await call('POST', '/v1/channels', { name: 'B' }), 201);
  expectLimit(await call('POST', '/v1/channels', { name: 'C' }), 'ONAIR_LIMIT_CHANNELS_PER_WORKSPACE', 2);
  const names = expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200).data.map((c) => c.name);
  expect(names).toEqual(['A', 'B']);
  expectStatus(await call('DELETE', `/v1/channels/${a.id}`), 204);
  expectStatus(await call('POST', '/v1/channels', { name: 'C' }), 201);
});

it('holds scenes per channel, dry runs included; another channel has its own', async () => {
  const { call } = await start({ ONAIR_LIMIT_SCENES_PER_CHANNEL: '2' });
  const one = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'One' }), 201);
  const two = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Two' }), 201);
  const scene = (name: string) => ({ name, template: 'lower-third' });
  const first = expectStatus(await call<{ id: string }>('POST', `/v1/channels/${one.id}/scenes`, scene('S1')), 201);
  expectStatus(await call('POST', `/v1/channels/${one.id}/scenes`, scene('S2')), 201);
  const full = await call('POST', `/v1/channels/${one.id}/scenes`, scene('S3'));
  expectLimit(full, 'ONAIR_LIMIT_SCENES_PER_CHANNEL', 2);
  expectLimit(
    await call('POST', `/v1/channels/${one.id}/scenes?dryRun=1`, scene('S3')),
    'ONAIR_LIMIT_SCENES_PER_CHANNEL',
    2,
  );
  const listed = expectStatus(await call<List<unknown>>('GET', `/v1/channels/${one.id}/scenes`), 200).data;
  expect(listed).toHaveLength(2);
  expectStatus(await call('POST', `/v1/channels/${two.id}/scenes`, scene('Other')), 201);
  expectStatus(await call('DELETE', `/v1/channels/${one.id}/scenes/${first.id}`), 204);
  expectStatus(await call('POST', `/v1/channels/${one.id}/scenes`, scene('S3')), 201);
});

it('holds API keys per workspace, counting only keys not revoked', async () => {
  const { call } = await start({ ONAIR_LIMIT_KEYS_PER_WORKSPACE: '3' });
  // The bootstrap key is the first.
  const k2 = await createKey(call, ['channels:read']);
  await createKey(call, ['channels:read']);
  expectLimit(
    await call('POST', '/v1/keys', { name: 'four', permissions: ['channels:read'] }),
    'ONAIR_LIMIT_KEYS_PER_WORKSPACE',
    3,
  );
  expectStatus(await call('DELETE', `/v1/keys/${k2.id}`), 204);
  await createKey(call, ['channels:read']);
});

it('holds webhook subscriptions per workspace and incoming hooks per channel, as configured', async () => {
  const { call } = await start({
    ONAIR_LIMIT_WEBHOOKS_PER_WORKSPACE: '1',
    ONAIR_LIMIT_INCOMING_HOOKS_PER_CHANNEL: '1',
    ONAIR_WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  expectStatus(await call('POST', '/v1/webhooks', { url: 'https://127.0.0.1:9/a' }), 201);
  expectLimit(
    await call('POST', '/v1/webhooks', { url: 'https://127.0.0.1:9/b' }),
    'ONAIR_LIMIT_WEBHOOKS_PER_WORKSPACE',
    1,
  );
  const ch = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Hooked' }), 201);
  expectStatus(await call('POST', `/v1/channels/${ch.id}/scenes`, { name: 'Score', template: 'scoreboard' }), 201);
  const hook = { name: 'Scorekeeper', mapping: { home: 'scoreA' } };
  expectStatus(await call('POST', `/v1/channels/${ch.id}/incoming-hooks`, hook), 201);
  expectLimit(
    await call('POST', `/v1/channels/${ch.id}/incoming-hooks`, hook),
    'ONAIR_LIMIT_INCOMING_HOOKS_PER_CHANNEL',
    1,
  );
});

it('holds the workspaces an account owns', async () => {
  const { server } = await start({ ONAIR_LIMIT_WORKSPACES_PER_ACCOUNT: '2' });
  const owner = await setupOwner(server);
  expectStatus(await owner.call('POST', '/v1/workspaces', { name: 'Second' }), 201);
  expectLimit(await owner.call('POST', '/v1/workspaces', { name: 'Third' }), 'ONAIR_LIMIT_WORKSPACES_PER_ACCOUNT', 2);
  const names = expectStatus(await owner.call<List<{ name: string }>>('GET', '/v1/workspaces'), 200).data;
  expect(names.map((w) => w.name).sort()).toEqual(['Second', 'Studio A']);
});

it("counts an account's creates over all its workspaces: a new workspace is no fresh bucket", async () => {
  const { server } = await start({ ONAIR_LIMIT_CREATES_PER_ACCOUNT: '5', ONAIR_LIMIT_CREATES_PER_ADDRESS: '1000' });
  const owner = await setupOwner(server);
  const b = await newWorkspace(server.url, owner); // 2 creates: the workspace and its key
  for (const name of ['A1', 'A2']) expectStatus(await owner.call('POST', '/v1/channels', { name }), 201);
  expectStatus(await b.session('POST', '/v1/channels', { name: 'B1' }), 201);
  const refused = expectProblem(await b.session('POST', '/v1/channels', { name: 'B2' }), 429, 'rate_limited');
  expect(refused.detail).toMatch(/creates by this account: at most 5 per 60 s/);
  // The account's API keys are not the account: a key of workspace B still creates (its workspace allows it).
  expectStatus(await b.call('POST', '/v1/channels', { name: 'By key' }), 201);
  const inB = expectStatus(await b.call<List<Channel>>('GET', '/v1/channels'), 200).data.map((c) => c.name);
  expect(inB).toEqual(['B1', 'By key']);
});

it('counts creates per client address, whichever key or workspace they use', async () => {
  const { call, server } = await start({ ONAIR_LIMIT_CREATES_PER_ADDRESS: '4' });
  const other = api(server.url, (await createKey(call, ['*'])).secret); // 1
  expectStatus(await call('POST', '/v1/channels', { name: 'One' }), 201); // 2
  expectStatus(await other('POST', '/v1/channels', { name: 'Two' }), 201); // 3
  expectStatus(await call('POST', '/v1/channels', { name: 'Three' }), 201); // 4
  const refused = expectProblem(await other('POST', '/v1/channels', { name: 'Four' }), 429, 'rate_limited');
  expect(refused.detail).toMatch(/creates from this address: at most 4 per 60 s/);
  const names = expectStatus(await call<List<Channel>>('GET', '/v1/channels'), 200).data.map((c) => c.name);
  expect(names).toEqual(['One', 'Two', 'Three']);
});

it('refuses a limit setting that is not a whole number from 1 up', async () => {
  await expect(startServerWith({ ONAIR_LIMIT_CHANNELS_PER_WORKSPACE: '0' })).rejects.toThrow(
    /ONAIR_LIMIT_CHANNELS_PER_WORKSPACE/,
  );
});

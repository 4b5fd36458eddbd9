/**
 * Workspaces (docs/api.md, "Authentication"): every resource belongs to one, and nothing leaks across them. A caller of
 * workspace A gets the same 404 for every resource of workspace B as for one that does not exist.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  stableState,
  tokenOf,
  type Api,
  type Channel,
  type List,
  type ScoreboardChannel,
} from './helpers/api.js';
import {
  addMember,
  createKey,
  newWorkspace,
  sessionApi,
  setupOwner,
  type KeyCreated,
  type Member,
} from './helpers/access-fixtures.js';
import {
  fillPath,
  bodyFor,
  operations,
  incomingHookOf,
  sourceOf,
  showOf,
  WEBHOOK_ENV,
  WEBHOOK_URL,
  type Ids,
  type Operation,
} from './helpers/access-openapi.js';
import { solidPng, uploadForm } from './helpers/asset-files.js';
import { expectProblem } from './helpers/problem.js';
import { ografZip, uploadZip } from './helpers/ograf-packages.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient, UpgradeRefused } from './helpers/ws-client.js';

let server: TestServer;
let keyA: Api;
let owner: Member;
let a: ScoreboardChannel;
let b: ScoreboardChannel & {
  call: Api;
  orgId: string;
  key: KeyCreated;
  member: Member;
  invitationId: string;
  webhookId: string;
  hookId: string;
  sourceId: string;
  token: string;
  rundownId: string;
  itemId: string;
  scheduleId: string;
  assetId: string;
  assetPath: string;
  graphicId: string;
};

beforeEach(async () => {
  server = await startTestServer({}, WEBHOOK_ENV);
  keyA = api(server.url, server.key);
  owner = await setupOwner(server);
  a = await createChannelWithScoreboard(keyA, 'A');
  const ws = await newWorkspace(server.url, owner);
  const channel = await createChannelWithScoreboard(ws.call, 'B');
  const key = await createKey(ws.call, ['channels:read']);
  const member = await addMember(server.url, ws.session, 'b-only@example.com', 'viewer');
  const invited = await ws.session<{ id: string }>('POST', '/v1/members', {
    email: 'later@example.com',
    role: 'viewer',
  });
  const webhook = expectStatus(await ws.call<{ id: string }>('POST', '/v1/webhooks', { url: WEBHOOK_URL }), 201);
  b = {
    ...channel,
    call: ws.call,
    orgId: ws.orgId,
    key,
    member,
    invitationId: expectStatus(invited, 201).id,
    webhookId: webhook.id,
    ...(await incomingHookOf(ws.call, channel.channelId)),
    ...(await sourceOf(ws.call, channel.channelId)),
    ...(await showOf(ws.call, channel.channelId, channel.sceneId)),
    ...(await assetOf(server.url, (await createKey(ws.call, ['channels:write'])).secret)),
    graphicId: (await uploadZip(server.url, (await createKey(ws.call, ['channels:write'])).secret, ografZip())).body
      .data[0]!.id,
  };
});

/** An asset uploaded to workspace B with one of its keys. */
async function assetOf(url: string, secret: string): Promise<{ assetId: string; assetPath: string }> {
  const up = await uploadForm(url, secret, solidPng(1, 1, [0, 0, 0, 255]), 'b.png');
  if (up.status !== 201) throw new Error(`asset: ${up.status} ${JSON.stringify(up.body)}`);
  return { assetId: String(up.body.id), assetPath: String(up.body.path) };
}

afterEach(async () => {
  await server.dispose();
});

const FAKE: Required<Ids> = {
  id: 'ch_0000000000000000000000000000beef',
  sceneId: 'sc_0000000000000000000000000000beef',
  keyId: 'key_0000000000000000000000000000beef',
  userId: 'usr_0000000000000000000000000000beef',
  invitationId: 'inv_0000000000000000000000000000beef',
  webhookId: 'wh_0000000000000000000000000000beef',
  hookId: 'hook_0000000000000000000000000000beef',
  sourceId: 'src_0000000000000000000000000000beef',
  token: 'NoSuchToken0000000000000000000beef',
  rundownId: 'rd_0000000000000000000000000000beef',
  itemId: 'it_0000000000000000000000000000beef',
  scheduleId: 'sch_0000000000000000000000000000beef',
  assetId: 'ast_0000000000000000000000000000beef',
  graphicId: 'gr_0000000000000000000000000000beef',
};
const PERMISSION_BASED = /:/;

/** The caller in workspace A for the route: the `*` key, or the owner's session for account routes. */
const callerFor = (op: Operation) => (PERMISSION_BASED.test(String(op.permission)) ? keyA : owner.call);

describe('a caller of workspace A and the resources of workspace B', () => {
  it('gets the 404 of a missing id on every route with an id of B, and B is untouched', async () => {
    const idsOfB: Required<Ids> = {
      id: b.channelId,
      sceneId: b.sceneId,
      keyId: b.key.id,
      userId: b.member.userId,
      invitationId: b.invitationId,
      webhookId: b.webhookId,
      hookId: b.hookId,
      sourceId: b.sourceId,
      token: b.token,
      rundownId: b.rundownId,
      itemId: b.itemId,
      scheduleId: b.scheduleId,
      assetId: b.assetId,
      graphicId: b.graphicId,
    };
    const before = stableState(await getState(b.call, b.channelId));
    // A public route's token is the credential, whoever holds it (an incoming webhook's URL): not a workspace id.
    // The server admin's routes act on the whole server's accounts, not on a workspace's resources. The built-in
    // templates are the server's, the same in every workspace.
    const withIds = (await operations(server.url)).filter(
      (op) =>
        op.path.includes('{') &&
        op.permission !== 'public' &&
        op.permission !== 'admin' &&
        !op.path.startsWith('/templates/'),
    );
    expect(withIds.length).toBeGreaterThan(12);
    for (const op of withIds) {
      const call = callerFor(op);
      const foreign = expectProblem(await call(op.method, fillPath(op, idsOfB), bodyFor(op, idsOfB)), 404, 'not_found');
      const missing = expectProblem(await call(op.method, fillPath(op, FAKE), bodyFor(op, FAKE)), 404, 'not_found');
      let detail = foreign.detail;
      for (const k of Object.keys(FAKE) as (keyof Ids)[]) detail = detail.replaceAll(idsOfB[k], FAKE[k]);
      expect(detail, op.name).toBe(missing.detail);
    }
    expect(stableState(await getState(b.call, b.channelId))).toEqual(before);
    expectStatus(await api(server.url, b.key.secret)('GET', '/v1/channels'), 200);
    const scenes = expectStatus(await b.call('GET', `/v1/channels/${b.channelId}/scenes`), 200);
    expect(scenes).toMatchObject({ data: [{ id: b.sceneId }] });
  });

  it("cannot read B's asset files, with its key or its channel's output token", async () => {
    const bearer = { authorization: `Bearer ${server.key}` };
    expect((await fetch(`${server.url}${b.assetPath}`, { headers: bearer })).status).toBe(404);
    const channel = expectStatus(await keyA<Channel>('GET', `/v1/channels/${a.channelId}`), 200);
    const query = `?channel=${a.channelId}&token=${tokenOf(channel.outputUrl)}`;
    expect((await fetch(`${server.url}${b.assetPath}${query}`)).status).toBe(404);
    const own = expectStatus(await b.call<Channel>('GET', `/v1/channels/${b.channelId}`), 200);
    const ownQuery = `?channel=${b.channelId}&token=${tokenOf(own.outputUrl)}`;
    expect((await fetch(`${server.url}${b.assetPath}${ownQuery}`)).status).toBe(200);
  });

  it("cannot reach B's scene through its own channel", async () => {
    const path = `/v1/channels/${a.channelId}/scenes/${b.sceneId}`;
    expectProblem(await keyA('GET', path), 404, 'not_found');
    expectProblem(await keyA('DELETE', path), 404, 'not_found');
    for (const bus of ['preview', 'program']) {
      const res = await keyA('POST', `/v1/channels/${a.channelId}/${bus}`, { sceneId: b.sceneId });
      expectProblem(res, 404, 'not_found');
    }
    expect((await getState(keyA, a.channelId)).program.map((p) => p.sceneId)).toEqual([a.sceneId]);
  });

  it("lists none of B's channels, keys or members", async () => {
    const channels = expectStatus(await keyA<List<Channel>>('GET', '/v1/channels'), 200).data;
    expect(channels.map((c) => c.id)).toEqual([a.channelId]);
    const keys = expectStatus(await keyA<List<KeyCreated>>('GET', '/v1/keys?limit=100'), 200).data;
    expect(keys.map((k) => k.id)).not.toContain(b.key.id);
    const members = expectStatus(await owner.call<List<{ userId: string }>>('GET', '/v1/members'), 200).data;
    expect(members.map((m) => m.userId)).toEqual([owner.userId]);
    const theirs = expectStatus(await b.member.call<List<{ id: string }>>('GET', '/v1/workspaces'), 200).data;
    expect(theirs.map((w) => w.id)).toEqual([b.orgId]);
  });

  it("cannot mint a key locked to B's channel", async () => {
    const keysOfA = async () => expectStatus(await keyA<List<{ id: string }>>('GET', '/v1/keys?limit=100'), 200).data;
    const before = await keysOfA();
    const body = { name: 'reach', permissions: ['channels:read'], channelIds: [b.channelId] };
    const foreign = expectProblem(await keyA('POST', '/v1/keys', body), 400, 'invalid_request');
    const fake = { ...body, channelIds: [FAKE.id] };
    const missing = expectProblem(await keyA('POST', '/v1/keys', fake), 400, 'invalid_request');
    // The same answer, word for word, as for a channel that does not exist: nothing tells B's channel exists.
    expect(foreign.detail.replaceAll(b.channelId, FAKE.id)).toBe(missing.detail);
    expect(await keysOfA()).toEqual(before);
  });

  it("cannot open B's channel over the WebSocket, with a key or with A's output token", async () => {
    const refused = async (auth: { key?: string; token?: string }) => {
      const err: unknown = await RenderClient.connect(server.url, b.channelId, auth).then(
        (c) => (c.close(), new Error('accepted')),
        (e: unknown) => e,
      );
      if (!(err instanceof UpgradeRefused)) throw err;
      return err.status;
    };
    expect(await refused({ key: server.key })).toBe(404);
    expect(await refused({ token: a.token })).toBe(401);
  });

  it('cannot act in B through X-Workspace as a session user who is not a member of B', async () => {
    const operatorA = await addMember(server.url, owner.call, 'a-only@example.com', 'operator');
    const intoB = sessionApi(server.url, operatorA.cookie, { 'x-workspace': b.orgId });
    expectProblem(await intoB('GET', '/v1/channels'), 404, 'not_found');
    expectProblem(await intoB('PATCH', `/v1/channels/${b.channelId}/inputs`, { scoreA: 9 }), 404, 'not_found');
    expect((await getState(b.call, b.channelId)).inputs.scoreA).toBe(0);
  });
});

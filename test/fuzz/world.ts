/**
 * The fixtures a fuzz file runs against: one real server (port 0, SQLite in a temp dir, the bootstrap key as the
 * `*` key), the owner signed in, and several workspaces, each with its own `*` key and a channel with a scoreboard
 * scene on air. Requests are spread over the workspaces (and their channels) so that the rate limits (60 creates and
 * 600 reads a minute per workspace, 30 updates a second per channel) refuse as little of the fuzzing as possible.
 *
 * Each workspace also has victims for the routes that delete or revoke: a spare channel, scene, key, webhook and
 * incoming hook, so that a fuzzed DELETE that succeeds takes a victim, never the fixtures the other cases need.
 */
import fs from 'node:fs';
import { Client } from 'undici';
import type { StartOptions } from '../../src/main.js';
import { newWorkspace, setupOwner, type Member } from '../helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, expectStatus, type Api } from '../helpers/api.js';
import { showOf } from '../helpers/access-openapi.js';
import { solidPng, uploadForm } from '../helpers/asset-files.js';
import { manifest, ografZip, uploadZip } from '../helpers/ograf-packages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

export interface Workspace {
  orgId: string;
  key: string;
  keyId: string;
  call: Api;
  channelId: string;
  sceneId: string;
  victimChannelId: string;
  victimSceneId: string;
  victimKeyId: string;
  webhookId: string;
  victimWebhookId: string;
  hookId: string;
  hookToken: string;
  victimHookId: string;
  /** A rundown with one item, and a scheduled take; a second of each to delete. */
  rundownId: string;
  itemId: string;
  scheduleId: string;
  victimRundownId: string;
  victimItemId: string;
  victimScheduleId: string;
  /** An uploaded image, and another to delete. */
  assetId: string;
  victimAssetId: string;
  /** A paused data source (never fetched), and another to delete. */
  sourceId: string;
  victimSourceId: string;
  graphicId: string;
  victimGraphicId: string;
}

export interface World {
  server: TestServer;
  owner: Member;
  workspaces: Workspace[];
  /** A pending invitation, for DELETE /invitations/{invitationId}. */
  invitationId: string;
  /** Undici client for hostile requests (raw paths). */
  client: Client;
  dispose(): Promise<void>;
}

/** Public when fixtures are saved; loopback afterwards, so deliveries and pings are refused without any network. */
function flippingResolver() {
  let address = '93.184.216.34';
  return {
    resolve: async () => [{ address, family: 4 as const }],
    toLoopback: () => (address = '127.0.0.1'),
  };
}

export async function startServer(options: StartOptions = {}, env: Record<string, string> = {}) {
  const resolver = flippingResolver();
  const server = await startTestServer(
    { webhookResolve: resolver.resolve, ...options },
    {
      ONAIR_WEBHOOK_TIMEOUT_MS: '1000',
      ONAIR_WEBHOOK_RETRY_DELAYS_MS: '100',
      // Every fuzz request comes from 127.0.0.1: the per-address and per-account create limits (300 and 120 a
      // minute) would refuse most of a file's creates before their bodies are looked at. The per-workspace buckets
      // still apply, and a 429 is still a documented answer.
      ONAIR_LIMIT_CREATES_PER_ADDRESS: '1000000',
      ONAIR_LIMIT_CREATES_PER_ACCOUNT: '1000000',
      ...env,
    },
  );
  return { server, resolver };
}

async function fill(call: Api, orgId: string, key: string, baseUrl: string): Promise<Workspace> {
  const me = expectStatus(await call<{ key: { id: string } }>('GET', '/v1/me'), 200);
  const { channelId, sceneId } = await createChannelWithScoreboard(call, 'Fuzz');
  const victimScene = expectStatus(
    await call<{ id: string }>('POST', `/v1/channels/${channelId}/scenes`, { name: 'Spare', template: 'lower-third' }),
    201,
  );
  const victimChannel = expectStatus(await call<{ id: string }>('POST', '/v1/channels', { name: 'Victim' }), 201);
  const victimKey = expectStatus(
    await call<{ id: string }>('POST', '/v1/keys', { name: 'victim', permissions: ['channels:read'] }),
    201,
  );
  const webhook = async () =>
    expectStatus(await call<{ id: string }>('POST', '/v1/webhooks', { url: 'https://hooks.example/in' }), 201).id;
  const hook = async () =>
    expectStatus(
      await call<{ id: string; url: string }>('POST', `/v1/channels/${channelId}/incoming-hooks`, {
        name: 'scorekeeper',
        mapping: { home_score: 'scoreA', 'game.clock.running': 'gameClock' },
      }),
      201,
    );
  const mainHook = await hook();
  const asset = async (rgba: [number, number, number, number]) => {
    const up = await uploadForm(baseUrl, key, solidPng(1, 1, rgba), 'dot.png');
    if (up.status !== 201) throw new Error(`asset: ${up.status} ${JSON.stringify(up.body)}`);
    return String(up.body.id);
  };
  const source = async () =>
    expectStatus(
      await call<{ id: string }>('POST', `/v1/channels/${channelId}/sources`, {
        type: 'json_url',
        url: 'https://feeds.example/scores.json',
        mapping: { home: 'scoreA' },
        paused: true,
      }),
      201,
    ).id;
  const graphic = async (id: string) => {
    const up = await uploadZip(baseUrl, key, ografZip({ 'lower-third.ograf.json': manifest({ id }) }));
    if (up.status !== 201) throw new Error(`graphic: ${up.status} ${JSON.stringify(up.body)}`);
    return up.body.data[0]!.id;
  };
  const show = await showOf(call, channelId, sceneId);
  // The victims: another rundown with its scheduled take, and another item in the first rundown.
  const victimShow = await showOf(call, channelId, sceneId);
  const victimItem = expectStatus(
    await call<{ id: string }>('POST', `/v1/channels/${channelId}/rundowns/${show.rundownId}/items`, { sceneId }),
    201,
  );
  return {
    orgId,
    key,
    keyId: me.key.id,
    call,
    channelId,
    sceneId,
    victimChannelId: victimChannel.id,
    victimSceneId: victimScene.id,
    victimKeyId: victimKey.id,
    webhookId: await webhook(),
    victimWebhookId: await webhook(),
    hookId: mainHook.id,
    hookToken: mainHook.url.split('/').pop()!,
    victimHookId: (await hook()).id,
    ...show,
    victimRundownId: victimShow.rundownId,
    victimItemId: victimItem.id,
    victimScheduleId: victimShow.scheduleId,
    assetId: await asset([0, 0, 0, 255]),
    victimAssetId: await asset([255, 255, 255, 255]),
    sourceId: await source(),
    victimSourceId: await source(),
    graphicId: await graphic('com.example.fuzz'),
    victimGraphicId: await graphic('com.example.fuzz-victim'),
  };
}

/**
 * GET for the tests' own bookkeeping (state, scenes): a 429 from the workspace's `reads` bucket is waited out
 * (Retry-After) rather than failing the property, since a long soak may read more than 600 times a minute.
 */
export async function read<T>(ws: Workspace, path: string): Promise<T> {
  for (;;) {
    const res = await ws.call<T>('GET', path);
    if (res.status !== 429) return expectStatus(res, 200);
    const wait = Number(res.headers.get('retry-after') ?? 1);
    await new Promise((resolve) => setTimeout(resolve, Math.min(61, Math.max(1, wait)) * 1000));
  }
}

export async function startWorld(workspaces: number, options: StartOptions = {}): Promise<World> {
  const { server, resolver } = await startServer(options);
  const owner = await setupOwner({ url: server.url, handle: server.handle });
  const first = expectStatus(await api(server.url, server.key)<{ workspace: { id: string } }>('GET', '/v1/me'), 200);
  const all = [await fill(api(server.url, server.key), first.workspace.id, server.key, server.url)];
  for (let i = 1; i < workspaces; i++) {
    const ws = await newWorkspace(server.url, owner, `Fuzz ${i}`);
    all.push(await fill(ws.call, ws.orgId, ws.key, server.url));
  }
  const invitation = expectStatus(
    await owner.call<{ id: string }>('POST', '/v1/members', { email: 'invitee@example.com', role: 'viewer' }),
    201,
  );
  resolver.toLoopback();
  const client = new Client(server.url, { pipelining: 0 });
  return {
    server,
    owner,
    workspaces: all,
    invitationId: invitation.id,
    client,
    async dispose() {
      await client.close().catch(() => undefined);
      await server.stop();
      fs.rmSync(server.dir, { recursive: true, force: true });
    },
  };
}

/**
 * A show for the Companion module's tests: a real server on a fixed free port (so a restart comes back where the
 * module connects), a channel "Main" with a basketball scoreboard (scores, a game clock, triggers) and a lower third
 * whose name and title belong to each instance (with a `next` step), a rundown of two items, and a cursor data
 * source on a local HTTPS feed; and the module, built, running in the Companion stand-in against it.
 */
import { expect } from 'vitest';
import { api, expectStatus, getState, type Api, type Channel, type Scene, type State } from '../helpers/api.js';
import { CompanionHost } from '../helpers/companion-host.js';
import { addSource, csv, liveFeed, type Source } from '../helpers/data-sources.js';
import { startFeedServer, type FeedServer } from '../helpers/feed-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { freePort } from '../helpers/spawn-server.js';
import { testCertificate } from '../helpers/webhook-receiver.js';

export interface Rundown {
  id: string;
  name: string;
  focus: string | null;
  items: { id: string; label: string; state: string }[];
}

export interface Show {
  server: TestServer;
  feed: FeedServer;
  call: Api;
  channelId: string;
  score: Scene;
  strap: Scene;
  rundown: Rundown;
  source: Source;
  host: CompanionHost;
  state(): Promise<State>;
  dispose(): Promise<void>;
}

const RESULTS = ['Home,Away', 'Lions,Tigers', 'Bears,Wolves', 'Eagles,Hawks'].join('\r\n');

export async function startShow(options: { key?: string } = {}): Promise<Show> {
  const { cert } = await testCertificate();
  const port = await freePort();
  const server = await startTestServer(
    { webhookCa: cert },
    { ONAIR_PORT: String(port), ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' },
  );
  const call = api(() => server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
  const channelId = channel.id;
  const score = expectStatus(
    await call<Scene>('POST', `/v1/channels/${channelId}/scenes`, { name: 'Score', template: 'basketball-scoreboard' }),
    201,
  );
  const strap = await itemStrap(call, channelId);
  const rundown = expectStatus(
    await call<Rundown>('POST', `/v1/channels/${channelId}/rundowns`, { name: 'Guests' }),
    201,
  );
  for (const [label, name] of [
    ['Anna Berg', 'Anna'],
    ['Ben Carr', 'Ben'],
  ]) {
    expectStatus(
      await call('POST', `/v1/channels/${channelId}/rundowns/${rundown.id}/items`, {
        sceneId: strap.id,
        label,
        values: { name },
      }),
      201,
    );
  }
  const feed = await startFeedServer({ tls: true });
  feed.route('/results.csv', liveFeed(csv(RESULTS)).handler);
  const source = await addSource(call, channelId, {
    type: 'csv_url',
    name: 'Results',
    url: `${feed.origin}/results.csv`,
    intervalMs: 3_600_000,
    row: { by: 'cursor' },
    mapping: { Home: 'home', Away: 'away' },
  });
  const host = new CompanionHost();
  await host.start(moduleConfig(server), { apiKey: options.key ?? server.key });
  const show: Show = {
    server,
    feed,
    call,
    channelId,
    score,
    strap,
    rundown: expectStatus(await call<Rundown>('GET', `/v1/channels/${channelId}/rundowns/${rundown.id}`), 200),
    source,
    host,
    state: () => getState(call, channelId),
    async dispose() {
      await host.stop();
      await server.dispose();
      await feed.close();
    },
  };
  return show;
}

export function moduleConfig(server: TestServer, channels = '') {
  return { host: '127.0.0.1', port: server.port, tls: false, channels };
}

/** Waits until the module is connected and has the channel's scenes and rundown in its variables. */
export async function untilLive(show: Show): Promise<void> {
  await expect.poll(() => show.host.status, { timeout: 20_000 }).toBe('ok');
  await expect
    .poll(() => Object.keys(show.host.variableDefinitions), { timeout: 20_000 })
    .toEqual(expect.arrayContaining(['Main.scene.Score', 'Main.rundown.Guests.next', 'Main.clock.gameClock']));
}

/** A lower third whose name and title belong to each instance, with a `next` step for continue. */
async function itemStrap(call: Api, channelId: string): Promise<Scene> {
  const scene = expectStatus(
    await call<Scene>('POST', `/v1/channels/${channelId}/scenes`, { name: 'Strap', template: 'lower-third' }),
    201,
  );
  const definition = scene.definition as {
    inputs: { name: string; scope?: string }[];
    triggers: { name: string; animation: string }[];
  };
  for (const input of definition.inputs) if (input.name === 'name' || input.name === 'title') input.scope = 'item';
  definition.triggers.push({ name: 'next', animation: 'pulse' });
  return expectStatus(
    await call<Scene>('PUT', `/v1/channels/${channelId}/scenes/${scene.id}`, { name: 'Strap', definition }),
    200,
  );
}

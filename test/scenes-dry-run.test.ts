/**
 * Dry runs of scene writes (docs/api.md, "Scenes and templates"): `POST …/scenes?dryRun=1` and
 * `PUT …/scenes/{sceneId}?dryRun=1` run every check the real call runs and answer the scene as it would be saved,
 * saving nothing, changing nothing on air, firing no event, and counting against the `reads` bucket.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addScoreboard,
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  stableState,
  type Api,
  type Channel,
  type Event,
  type List,
  type Scene,
} from './helpers/api.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient } from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
const clients: RenderClient[] = [];

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

const STRIP = {
  inputs: [{ name: 'line', type: 'text', default: 'Hello' }],
  elements: [
    { type: 'box', x: 96, y: 900, width: 800, height: 80, fill: '#101820' },
    { type: 'text', x: 126, y: 900, width: 740, height: 80, text: '{line}', fontFamily: 'Oswald', fontSize: 48 },
  ],
};

async function newChannel(): Promise<Channel> {
  return expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
}
const scenes = async (channelId: string) =>
  expectStatus(await call<List<Scene>>('GET', `/v1/channels/${channelId}/scenes`), 200).data;
const events = async () => expectStatus(await call<List<Event>>('GET', '/v1/events?limit=100'), 200).data;

describe('POST /v1/channels/{id}/scenes?dryRun=1', () => {
  it('answers 200 with the scene as it would be saved, id sc_dryrun, and stores nothing', async () => {
    const channel = await newChannel();
    const before = await events();
    const res = await call<Scene>('POST', `/v1/channels/${channel.id}/scenes?dryRun=1`, {
      name: 'Strip',
      definition: STRIP,
    });
    const scene = expectStatus(res, 200);
    expect(scene).toMatchObject({ id: 'sc_dryrun', channelId: channel.id, name: 'Strip', layer: 0 });
    // The definition is normalised exactly as a real create stores it.
    expect(scene.definition).toMatchObject({
      version: 1,
      layer: 0,
      inputs: [{ name: 'line', type: 'text', label: 'line', default: 'Hello' }],
      transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
      triggers: [],
    });
    const real = expectStatus(
      await call<Scene>('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Strip', definition: STRIP }),
      201,
    );
    expect(real.definition).toEqual(scene.definition);
    expect(await scenes(channel.id)).toEqual([real]);
    expect(await events()).toEqual(before);

    // `true` works too, and a template's definition comes back whole.
    const fromTemplate = expectStatus(
      await call<Scene>('POST', `/v1/channels/${channel.id}/scenes?dryRun=true`, {
        name: 'Score',
        template: 'scoreboard',
      }),
      200,
    );
    expect(fromTemplate).toMatchObject({ id: 'sc_dryrun', layer: 10, triggers: ['flashScoreA', 'flashScoreB'] });
    expect(await scenes(channel.id)).toEqual([real]);
  });

  it('refuses what the real call refuses, with the same paths', async () => {
    const channel = await newChannel();
    const bad = { ...STRIP, elements: [STRIP.elements[0], { ...STRIP.elements[1], fontSize: -5, colour: '#fff' }] };
    const problem = expectProblem(
      await call('POST', `/v1/channels/${channel.id}/scenes?dryRun=1`, { name: 'Strip', definition: bad }),
      400,
      'invalid_request',
    );
    expect(errorPaths(problem)).toEqual(['definition.elements.1.fontSize', 'definition.elements.1.colour']);
    const real = expectProblem(
      await call('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Strip', definition: bad }),
      400,
      'invalid_request',
    );
    expect(real.errors).toEqual(problem.errors);

    // Binding checks and the template lookup run too.
    const typo = { ...STRIP, elements: [{ ...STRIP.elements[1], text: '{lien}' }] };
    const binding = expectProblem(
      await call('POST', `/v1/channels/${channel.id}/scenes?dryRun=1`, { name: 'Strip', definition: typo }),
      400,
      'invalid_request',
    );
    expect(errorPaths(binding)).toEqual(['definition.elements.0.text']);
    expect(binding.errors?.[0]?.message).toMatch(/did you mean "line"/);
    expectProblem(
      await call('POST', `/v1/channels/${channel.id}/scenes?dryRun=1`, { name: 'X', template: 'nope' }),
      400,
      'invalid_request',
    );

    // engine.checkScene: an input declared with another type by another scene of the channel.
    await addScoreboard(call, channel.id);
    const clash = { inputs: [{ name: 'scoreA', type: 'text' }] };
    expectProblem(
      await call('POST', `/v1/channels/${channel.id}/scenes?dryRun=1`, { name: 'Clash', definition: clash }),
      409,
      'conflict',
    );
    expect(await scenes(channel.id)).toHaveLength(1);
  });
});

describe('PUT /v1/channels/{id}/scenes/{sceneId}?dryRun=1', () => {
  it('checks an on-air scene without changing it or what renderers draw, and fires no event', async () => {
    const { channelId, sceneId, token } = await createChannelWithScoreboard(call);
    const client = await RenderClient.connect(server.url, channelId, { token });
    clients.push(client);
    await client.until(() => client.mirror ?? undefined);
    const scene = expectStatus(await call<Scene>('GET', `/v1/channels/${channelId}/scenes/${sceneId}`), 200);
    const state = stableState(await getState(call, channelId));
    const before = await events();
    const definition = structuredClone(scene.definition) as { elements: { text?: string }[] };
    definition.elements[2]!.text = 'GOAL {home}';

    const mark = client.mark();
    const dry = expectStatus(
      await call<Scene>('PUT', `/v1/channels/${channelId}/scenes/${sceneId}?dryRun=1`, { name: 'Edited', definition }),
      200,
    );
    expect(dry).toMatchObject({ id: sceneId, name: 'Edited' });
    expect((dry.definition as typeof definition).elements[2]!.text).toBe('GOAL {home}');
    expect(await client.collectFor(300, mark)).toEqual([]);
    expect(expectStatus(await call('GET', `/v1/channels/${channelId}/scenes/${sceneId}`), 200)).toEqual(scene);
    expect(stableState(await getState(call, channelId))).toEqual(state);
    expect(await events()).toEqual(before);

    // The layer of a scene on a bus is kept in a dry run as in the real call; an unknown scene is 404.
    const moved = { ...definition, layer: 11 };
    const conflict = expectProblem(
      await call('PUT', `/v1/channels/${channelId}/scenes/${sceneId}?dryRun=1`, { definition: moved }),
      409,
      'conflict',
    );
    expect(errorPaths(conflict)).toEqual(['definition.layer']);
    expectProblem(
      await call('PUT', `/v1/channels/${channelId}/scenes/sc_nope?dryRun=1`, { definition }),
      404,
      'not_found',
    );

    // The same body without dryRun does reach the renderers: the silence above was the dry run's.
    const real = client.mark();
    expectStatus(await call('PUT', `/v1/channels/${channelId}/scenes/${sceneId}`, { definition }), 200);
    await client.until(() => client.messages.slice(real).find((m) => m.type === 'frame' && m.scenes));
  });
});

describe('rate limits', () => {
  it('counts dry runs against reads, not creates, and says so in the OpenAPI document', async () => {
    const channel = await newChannel();
    const create = async () =>
      call<Scene>('POST', `/v1/channels/${channel.id}/scenes`, { name: 'S', definition: STRIP });
    const first = await create();
    expectStatus(first, 201);
    expect(first.headers.get('ratelimit-limit')).toBe('60');
    const createsLeft = Number(first.headers.get('ratelimit-remaining'));
    const read = await call('GET', `/v1/channels/${channel.id}/scenes`);
    const readsLeft = Number(read.headers.get('ratelimit-remaining'));

    for (let i = 0; i < 5; i++) {
      const dry = await call('POST', `/v1/channels/${channel.id}/scenes?dryRun=1`, { name: 'S', definition: STRIP });
      expectStatus(dry, 200);
      expect(dry.headers.get('ratelimit-limit')).toBe('600');
      expect(Number(dry.headers.get('ratelimit-remaining'))).toBe(readsLeft - 1 - i);
    }
    const put = await call('PUT', `/v1/channels/${channel.id}/scenes/${first.body.id}?dryRun=1`, { definition: STRIP });
    expectStatus(put, 200);
    expect(put.headers.get('ratelimit-limit')).toBe('600');
    // A refused dry run is counted like any read.
    const refused = await call('POST', `/v1/channels/${channel.id}/scenes?dryRun=1`, { name: '', definition: STRIP });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('ratelimit-limit')).toBe('600');

    const second = await create();
    expectStatus(second, 201);
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(createsLeft - 1);
    // dryRun=0 is the real call.
    const explicit = await call('POST', `/v1/channels/${channel.id}/scenes?dryRun=0`, { name: 'S', definition: STRIP });
    expectStatus(explicit, 201);
    expect(explicit.headers.get('ratelimit-limit')).toBe('60');

    const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Record<string, unknown> & { parameters?: { name: string }[] }>>;
    };
    for (const op of [doc.paths['/channels/{id}/scenes']!.post!, doc.paths['/channels/{id}/scenes/{sceneId}']!.put!]) {
      expect(op['x-onair-rate-limit']).toBe('creates');
      expect(op['x-onair-rate-limit-dry-run']).toBe('reads');
      expect(op.parameters?.map((p) => p.name)).toContain('dryRun');
    }
  });
});

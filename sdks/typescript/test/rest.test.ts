/** The REST client against a real onair server (its own, for this file). */
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnairApiError, type FetchLike, type OnairClient } from '../src/index.js';
import { clientFor, scoreboardChannel, startServer, type SdkServer } from './helpers.js';

let sdk: SdkServer;
let client: OnairClient;

beforeAll(async () => {
  sdk = await startServer();
  client = clientFor(sdk);
});

afterAll(async () => {
  await sdk?.dispose();
});

describe('channels, scenes, inputs and state', () => {
  it('creates a channel and a scene from a template, patches inputs and reads them in the state', async () => {
    const templates = await client.templates.list();
    const scoreboard = templates.data.find((t) => t.id === 'scoreboard');
    expect(scoreboard?.inputs.map((i) => i.name)).toContain('scoreA');
    expect(templates.nextCursor).toBeNull();

    const channel = await client.channels.create({ name: 'SDK main', fps: 50 });
    expect(channel).toMatchObject({ name: 'SDK main', fps: 50, width: 1920, height: 1080 });
    expect(channel.id).toMatch(/^ch_[0-9a-f]{32}$/);
    const scene = await client.scenes.create(channel.id, { name: 'Score', template: 'scoreboard' });
    expect(scene).toMatchObject({ channelId: channel.id, name: 'Score', layer: scoreboard!.layer });
    expect(await client.scenes.get(channel.id, scene.id)).toEqual(scene);

    const result = await client.channels.patchInputs(channel.id, { scoreA: 3, home: 'LEEDS' });
    expect(result).toMatchObject({ channelId: channel.id, inputs: { scoreA: 3, home: 'LEEDS' } });
    expect(result.frame).toBeGreaterThan(0);
    const state = await client.channels.getState(channel.id);
    expect(state.inputs).toMatchObject({ scoreA: 3, home: 'LEEDS' });
    expect(state.frame).toBeGreaterThanOrEqual(result.frame);
    // No output page has connected: none listed, none refused.
    expect(await client.channels.listOutputs(channel.id)).toEqual({ data: [], nextCursor: null, refused: null });

    const renamed = await client.channels.update(channel.id, { name: 'SDK main (renamed)' });
    expect(renamed.name).toBe('SDK main (renamed)');
    expect((await client.channels.get(channel.id)).name).toBe('SDK main (renamed)');
  });

  it('checks a definition with a dry run, replaces a scene, restores a version and deletes it', async () => {
    const channel = await client.channels.create({ name: 'SDK scenes' });
    const definition = {
      layer: 20,
      inputs: [{ name: 'line', type: 'text' as const, default: 'Hello' }],
      elements: [{ type: 'text' as const, x: 100, y: 900, width: 800, height: 80, text: '{line}', fontSize: 48 }],
    };
    const dry = await client.scenes.create(channel.id, { name: 'Card', definition }, { dryRun: true });
    expect(dry.id).toBe('sc_dryrun');
    expect(dry.definition.transitions).toBeDefined();
    expect((await client.scenes.list(channel.id)).data).toHaveLength(0);

    const scene = await client.scenes.create(channel.id, { name: 'Card', definition });
    const replaced = await client.scenes.replace(channel.id, scene.id, {
      name: 'Card 2',
      definition: { ...definition, inputs: [{ name: 'line', type: 'text', default: 'Bye' }] },
    });
    expect(replaced).toMatchObject({ id: scene.id, name: 'Card 2' });
    expect(replaced.inputs[0]).toMatchObject({ name: 'line', default: 'Bye' });
    const versions = (await client.scenes.versions(channel.id, scene.id)).data;
    expect(versions.map((v) => [v.version, v.name, v.savedBy.type])).toEqual([
      [2, 'Card 2', 'key'],
      [1, 'Card', 'key'],
    ]);
    const restored = await client.scenes.restoreVersion(channel.id, scene.id, 1);
    expect(restored).toMatchObject({ id: scene.id, name: 'Card', definition: scene.definition });
    expect((await client.scenes.versions(channel.id, scene.id)).data[0]).toMatchObject({ version: 3, name: 'Card' });
    await client.scenes.delete(channel.id, scene.id);
    await expect(client.scenes.get(channel.id, scene.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await client.channels.delete(channel.id);
    await expect(client.channels.get(channel.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('rotates the output token', async () => {
    const channel = await client.channels.create({ name: 'SDK token' });
    const rotated = await client.channels.rotateOutputToken(channel.id);
    expect(rotated.id).toBe(channel.id);
    expect(rotated.outputUrl).not.toBe(channel.outputUrl);
  });
});

describe('pagination', () => {
  it('lists one page with limit and follows nextCursor through every page', async () => {
    const created = [];
    for (const name of ['Page A', 'Page B', 'Page C']) created.push(await client.channels.create({ name }));
    const first = await client.channels.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).toBe(first.data[1]!.id);

    const seen: string[] = [];
    const requested: string[] = [];
    const counting: FetchLike = (url, init) => {
      requested.push(url);
      return fetch(url, init);
    };
    for await (const channel of clientFor(sdk, { fetch: counting }).channels.listAll({ limit: 2 }))
      seen.push(channel.id);
    for (const channel of created) expect(seen).toContain(channel.id);
    expect(new Set(seen).size).toBe(seen.length);
    // Every channel of the workspace, two per page: the iterator really went page by page.
    const all = seen.length;
    expect(requested).toHaveLength(Math.floor(all / 2) + 1);
    expect(requested[1]).toContain('cursor=');
  });

  it('pages scenes and the event log the same way', async () => {
    const { channel } = await scoreboardChannel(client, 'SDK events');
    await client.scenes.create(channel.id, { name: 'Lower third', template: 'lower-third' });
    await client.scenes.create(channel.id, { name: 'Bug', template: 'logo-bug' });
    const scenes: string[] = [];
    for await (const scene of client.scenes.listAll(channel.id, { limit: 2 })) scenes.push(scene.name);
    expect(scenes).toEqual(['Score', 'Lower third', 'Bug']);

    const since = new Date(Date.now() - 1000);
    for (const scoreA of [1, 2, 3]) await client.channels.patchInputs(channel.id, { scoreA });
    const events = [];
    for await (const event of client.events.listAll({
      channelId: channel.id,
      type: 'channel.bind_updated',
      limit: 2,
      since,
    })) {
      events.push(event);
    }
    expect(events.map((e) => (e.data.inputs as Record<string, unknown>).scoreA)).toEqual([1, 2, 3]);
    expect(events.every((e) => e.channelId === channel.id && e.data.source === 'api')).toBe(true);
  });
});

describe('playout', () => {
  it('cues in preview, takes to program, and the state shows it; triggers and clocks answer their frame', async () => {
    const { channel, scene } = await scoreboardChannel(client, 'SDK playout');
    const cued = await client.playout.preview(channel.id, scene.id);
    expect(cued.preview).toEqual([{ sceneId: scene.id, layer: scene.layer, itemId: null, values: {} }]);
    const taken = await client.playout.take(channel.id);
    expect(taken.program).toMatchObject([{ sceneId: scene.id, layer: scene.layer }]);
    expect(taken.preview).toEqual([]);
    const state = await client.channels.getState(channel.id);
    expect(state.program.map((p) => p.sceneId)).toEqual([scene.id]);

    const fired = await client.playout.fireTrigger(channel.id, 'flashScoreA');
    expect(fired.frame).toBeGreaterThan(0);
    const onLayer = await client.playout.fireTrigger(channel.id, 'flashScoreA', {
      layer: scene.layer,
      payload: { n: 1 },
    });
    expect(onLayer.frame).toBeGreaterThan(0);
    await expect(
      client.playout.fireTrigger(channel.id, 'flashScoreA', { layer: scene.layer + 1 }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'unknown_trigger',
    });
    const clock = await client.playout.clock(channel.id, 'gameClock', 'set', 300_000);
    expect(clock.clock).toMatchObject({ running: false, ms: 300_000 });
    const started = await client.playout.clock(channel.id, 'gameClock', { action: 'start' });
    expect(started.clock.running).toBe(true);

    const cleared = await client.playout.clear(channel.id, { layer: scene.layer });
    expect(cleared.program).toEqual([]);
    await client.playout.program(channel.id, { sceneId: scene.id });
    expect((await client.channels.getState(channel.id)).program[0]?.sceneId).toBe(scene.id);
    await expect(client.playout.take(channel.id)).rejects.toMatchObject({ status: 409, code: 'preview_empty' });
  });
});

describe('errors', () => {
  it('answers a missing channel with 404 not_found and a request id', async () => {
    const error = await client.channels.get('ch_00000000000000000000000000000000').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnairApiError);
    const apiError = error as OnairApiError;
    expect(apiError.status).toBe(404);
    expect(apiError.code).toBe('not_found');
    expect(apiError.title).toBe('Not found');
    expect(apiError.requestId).toMatch(/^req_/);
  });

  it('answers a bad body with 400 invalid_request and the fields at fault in `errors`', async () => {
    const error = (await client.channels
      .create({ name: 'x', fps: 24 as 25, width: 5 })
      .catch((e: unknown) => e)) as OnairApiError;
    expect(error).toBeInstanceOf(OnairApiError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    expect(error.errors.map((e) => e.path).sort()).toEqual(['fps', 'width']);
    expect(error.detail).toBeTruthy();
  });

  it('names the closest input of an unknown one', async () => {
    const { channel } = await scoreboardChannel(client, 'SDK unknown input');
    const error = (await client.channels
      .patchInputs(channel.id, { scorA: 1 })
      .catch((e: unknown) => e)) as OnairApiError;
    expect(error.code).toBe('unknown_input');
    expect(error.problem.closest).toBe('scoreA');
  });

  it('answers a wrong key with 401 unauthorized', async () => {
    const wrong = clientFor(sdk, { apiKey: 'onair_sk_WrongWrongWrongWrongWrongWrong000' });
    await expect(wrong.channels.list()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });
});

describe('rate limits', () => {
  it('waits out 429s on a burst of 40 patches: every call succeeds, some after waiting', async () => {
    const { channel } = await scoreboardChannel(client, 'SDK burst');
    const statuses: number[] = [];
    const recording: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      statuses.push(response.status);
      return response;
    };
    const burst = clientFor(sdk, { fetch: recording });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => burst.channels.patchInputs(channel.id, { scoreB: i })),
    );
    expect(results).toHaveLength(40);
    expect(results.every((r) => r.channelId === channel.id)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
  });
});

describe('idempotency', () => {
  it('answers a repeated Idempotency-Key with the first answer, and a different body with conflict', async () => {
    const replayed: (string | null)[] = [];
    const recording: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      replayed.push(response.headers.get('idempotent-replayed'));
      return response;
    };
    const idem = clientFor(sdk, { fetch: recording });
    const key = crypto.randomUUID();
    const name = `SDK idempotent ${key}`;
    const first = await idem.channels.create({ name }, { idempotencyKey: key });
    const second = await idem.channels.create({ name }, { idempotencyKey: key });
    expect(second.id).toBe(first.id);
    expect(replayed[1]).toBe('true');
    const same = [];
    for await (const channel of client.channels.listAll({ limit: 100 })) if (channel.name === name) same.push(channel);
    expect(same).toHaveLength(1);

    await expect(idem.channels.create({ name: `${name} (changed)` }, { idempotencyKey: key })).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
    });
  });
});

describe('keys and me', () => {
  it('creates, lists, reads and revokes a key; me() describes the caller', async () => {
    const me = await client.me();
    expect(me.permissions).toEqual(['*']);
    expect(me.key?.id).toMatch(/^key_/);

    const created = await client.keys.create({ name: 'SDK reader', permissions: ['channels:read'] });
    expect(created.secret).toMatch(/^onair_sk_/);
    const reader = clientFor(sdk, { apiKey: created.secret });
    expect((await reader.me()).permissions).toEqual(['channels:read']);
    await expect(reader.channels.create({ name: 'nope' })).rejects.toMatchObject({ status: 403, code: 'forbidden' });

    const listed = [];
    for await (const key of client.keys.listAll({ limit: 1 })) listed.push(key.id);
    expect(listed).toContain(created.id);
    expect((await client.keys.get(created.id)).revokedAt).toBeNull();
    await client.keys.revoke(created.id);
    expect((await client.keys.get(created.id)).revokedAt).not.toBeNull();
    await expect(reader.me()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });
});

describe('assets', () => {
  it('uploads a file, answers the same asset for the same bytes, lists, reads and deletes it', async () => {
    // The smallest GIF: typed from its bytes, whatever the name says.
    const gif = Uint8Array.from(Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'));
    const asset = await client.assets.upload(gif, 'dot.gif');
    expect(asset).toMatchObject({ type: 'image/gif', kind: 'image', name: 'dot.gif', width: 1, height: 1 });
    expect(asset.created).toBe(true);
    expect(asset.path).toBe(`/assets/${asset.sha256}.gif`);
    expect((await client.assets.upload(gif, 'again.gif')).id).toBe(asset.id);
    const listed = [];
    for await (const a of client.assets.listAll({ limit: 1 })) listed.push(a.id);
    expect(listed).toContain(asset.id);
    expect((await client.assets.get(asset.id)).sha256).toBe(asset.sha256);
    await client.assets.delete(asset.id);
    await expect(client.assets.get(asset.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('graphics', () => {
  it('imports an OGraf zip, answers the same graphic again, lists, reads and deletes it', async () => {
    const manifest = {
      $schema: 'https://ograf.ebu.io/v1/specification/json-schemas/graphics/schema.json',
      id: 'com.example.sdk',
      version: '1',
      name: 'SDK graphic',
      main: 'graphic.mjs',
      supportsRealTime: true,
      supportsNonRealTime: false,
      schema: { type: 'object', properties: { name: { type: 'string' } } },
    };
    const zip = zipSync({
      'sdk.ograf.json': strToU8(JSON.stringify(manifest)),
      'graphic.mjs': strToU8('export default class extends HTMLElement {}'),
    });
    const uploaded = await client.graphics.upload(zip);
    const [graphic] = uploaded.data;
    expect(graphic).toMatchObject({ graphicId: 'com.example.sdk', version: '1', created: true, stepCount: 1 });
    expect(graphic!.inputs.map((i) => i.name)).toEqual(['name']);
    expect((await client.graphics.upload(zip)).data[0]).toMatchObject({ id: graphic!.id, created: false });
    const listed = [];
    for await (const g of client.graphics.listAll({ limit: 1 })) listed.push(g.id);
    expect(listed).toContain(graphic!.id);
    expect((await client.graphics.get(graphic!.id)).name).toBe('SDK graphic');
    await client.graphics.delete(graphic!.id);
    await expect(client.graphics.get(graphic!.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});

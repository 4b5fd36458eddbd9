/**
 * `asset` inputs and fonts of the library against the real server (docs/assets.md, "Asset inputs", docs/scenes.md,
 * "Fonts of the library"): an asset input takes an image the workspace holds, by its path or URL; anything else is
 * 400 naming the input, and a file the workspace does not hold 422 unknown_asset, the same way over REST, the
 * WebSocket, an incoming hook, a rundown item and a cue. A text's fontFamily may name a WOFF2 font of the library,
 * checked when the scene is saved; neither kind of asset can be deleted while a scene uses it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectStatus, getState, type Api, type Channel, type Scene } from './helpers/api.js';
import { sha256, solidPng, uploadForm } from './helpers/asset-files.js';
import type { HookCreated } from './helpers/incoming-hooks.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient } from './helpers/ws-client.js';

const require = createRequire(import.meta.url);
/** A real WOFF2 font: one of the bundled faces' files, uploaded as a library font. */
const MONO_WOFF2 = fs.readFileSync(require.resolve('@fontsource/roboto-mono/files/roboto-mono-latin-400-normal.woff2'));
const OTHER_WOFF2 = fs.readFileSync(require.resolve('@fontsource/oswald/files/oswald-latin-400-normal.woff2'));

let server: TestServer;
let call: Api;
let channelId: string;
let image: { path: string; url: string; id: string };
let font: { path: string; url: string; id: string };

const NOT_HELD = `/assets/${'ab'.repeat(32)}.png`;

async function upload(file: Buffer, name: string) {
  const res = await uploadForm(server.url, server.key, file, name);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { path: string; url: string; id: string };
}

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  channelId = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Pitch' }), 201).id;
  image = await upload(solidPng(8, 8, [0, 120, 255, 255]), 'crest.png');
  font = await upload(MONO_WOFF2, 'house.woff2');
  expectStatus(
    await call<Scene>('POST', `/v1/channels/${channelId}/scenes`, {
      name: 'Crest',
      definition: {
        inputs: [
          { name: 'crest', type: 'asset' },
          { name: 'photo', type: 'asset', scope: 'item' },
        ],
        elements: [
          { type: 'image', src: '{crest}', x: 0, y: 0, width: 100, height: 100 },
          { type: 'image', src: '{photo}', x: 100, y: 0, width: 100, height: 100 },
        ],
      },
    }),
    201,
  );
});
afterAll(async () => {
  await server?.dispose();
});

const patch = (body: unknown) => call('PATCH', `/v1/channels/${channelId}/inputs`, body);

/** Values an asset input refuses with 400, and what the refusal says. */
const REFUSED: [string, () => unknown, RegExp][] = [
  ['an http URL elsewhere', () => 'https://example.com/crest.png', /must be an image of the asset library/],
  ['a data: URL', () => `data:image/png;base64,${solidPng(1, 1, [0, 0, 0, 255]).toString('base64')}`, /asset library/],
  ['a font of the library', () => font.path, /names a \.woff2 file/],
  ['a path with a query', () => `${image.url}?x=1`, /must be an image of the asset library/],
  ['a number', () => 7, /must be a string/],
];

describe('an asset input', () => {
  it('takes an image of the library by its path or its URL (on any host), and null', async () => {
    expectStatus(await patch({ crest: image.path }), 200);
    expect((await getState(call, channelId)).inputs.crest).toBe(image.path);
    expectStatus(await patch({ crest: image.url }), 200);
    const elsewhere = `https://graphics.example.org${image.path}`;
    expectStatus(await patch({ crest: elsewhere }), 200);
    expect((await getState(call, channelId)).inputs.crest).toBe(elsewhere);
    expectStatus(await patch({ crest: null }), 200);
    expect((await getState(call, channelId)).inputs.crest).toBeNull();
  });

  it.each(REFUSED)('refuses %s with 400 naming the input, over REST', async (_what, value, message) => {
    const problem = expectProblem(await patch({ crest: value() }), 400, 'invalid_request');
    expect(errorPaths(problem)).toEqual(['crest']);
    expect(problem.detail).toMatch(message);
  });

  it('refuses an image the workspace does not hold with 422 unknown_asset naming the input and the file', async () => {
    const problem = expectProblem(await patch({ crest: NOT_HELD }), 422, 'unknown_asset');
    expect(errorPaths(problem)).toEqual(['crest']);
    expect(problem.assets).toEqual([NOT_HELD]);
    expect(problem.detail).toContain(NOT_HELD);
    // All or nothing: a good value beside it is not applied either.
    const before = (await getState(call, channelId)).inputs.crest;
    expectProblem(await patch({ crest: image.path, photo: `https://h.example${NOT_HELD}` }), 422, 'unknown_asset');
    expect((await getState(call, channelId)).inputs.crest).toBe(before);
  });

  it('answers the same refusals over the WebSocket, and applies nothing', async () => {
    const operator = await RenderClient.connect(server.url, channelId, { key: server.key });
    try {
      for (const [i, [, value]] of REFUSED.entries()) {
        operator.send({ op: 'patch', id: `bad${i}`, inputs: { crest: value() } });
        expect(await operator.reply(`bad${i}`)).toMatchObject({ type: 'error', code: 'invalid_request' });
      }
      operator.send({ op: 'patch', id: 'missing', inputs: { crest: NOT_HELD } });
      expect(await operator.reply('missing')).toMatchObject({ type: 'error', code: 'unknown_asset' });
      operator.send({ op: 'patch', id: 'good', inputs: { crest: image.path } });
      expect(await operator.reply('good')).toMatchObject({ type: 'ack' });
    } finally {
      operator.close();
    }
    expect((await getState(call, channelId)).inputs.crest).toBe(image.path);
  });

  it('is checked the same way in an incoming hook post', async () => {
    const hooks = `/v1/channels/${channelId}/incoming-hooks`;
    const hook = expectStatus(await call<HookCreated>('POST', hooks, { name: 'Feed', mapping: { c: 'crest' } }), 201);
    const send = (body: unknown) => api(hook.url, '')('POST', '', body, { noAuth: true });
    expectStatus(await send({ c: image.url }), 200);
    expectProblem(await send({ c: NOT_HELD }), 422, 'unknown_asset');
    expectProblem(await send({ c: 'https://example.com/crest.png' }), 400, 'invalid_request');
    expect((await getState(call, channelId)).inputs.crest).toBe(image.url);
  });

  it("is checked in a rundown item's values and a cue's, at values.<name>", async () => {
    const scene = (await call<{ data: Scene[] }>('GET', `/v1/channels/${channelId}/scenes`)).body.data[0]!;
    const ch = `/v1/channels/${channelId}`;
    const rundown = expectStatus(await call<{ id: string }>('POST', `${ch}/rundowns`, { name: 'Show' }), 201);
    const items = `${ch}/rundowns/${rundown.id}/items`;
    const missing = expectProblem(
      await call('POST', items, { sceneId: scene.id, values: { photo: NOT_HELD } }),
      422,
      'unknown_asset',
    );
    expect(errorPaths(missing)).toEqual(['values.photo']);
    const font400 = expectProblem(
      await call('POST', items, { sceneId: scene.id, values: { photo: font.url } }),
      400,
      'invalid_request',
    );
    expect(errorPaths(font400)).toEqual(['values.photo']);
    const item = expectStatus(
      await call<{ id: string; version: number }>('POST', items, { sceneId: scene.id, values: { photo: image.path } }),
      201,
    );
    const edit = { values: { photo: NOT_HELD }, version: item.version };
    expectProblem(await call('PATCH', `${items}/${item.id}`, edit), 422, 'unknown_asset');
    const cue = { sceneId: scene.id, values: { photo: NOT_HELD } };
    expect(errorPaths(expectProblem(await call('POST', `${ch}/preview`, cue), 422, 'unknown_asset'))).toEqual([
      'values.photo',
    ]);
  });

  it("is checked as a scene's default when the scene is saved", async () => {
    const definition = (value: string) => ({ inputs: [{ name: 'logo', type: 'asset', default: value }] });
    const scenes = `/v1/channels/${channelId}/scenes`;
    const missing = expectProblem(
      await call('POST', scenes, { name: 'Logo', definition: definition(NOT_HELD) }),
      422,
      'unknown_asset',
    );
    expect(errorPaths(missing)).toEqual(['definition.inputs.0.default']);
    const elsewhere = expectProblem(
      await call('POST', scenes, { name: 'Logo', definition: definition('https://example.com/logo.png') }),
      400,
      'invalid_request',
    );
    expect(errorPaths(elsewhere)).toEqual(['definition.inputs.0.default']);
  });

  it('keeps its image in use while it holds it: delete is 409 naming the scene', async () => {
    const other = await upload(solidPng(8, 8, [9, 9, 9, 255]), 'other.png');
    expectStatus(await patch({ crest: other.url }), 200);
    const refused = expectProblem(await call('DELETE', `/v1/assets/${other.id}`), 409, 'conflict');
    expect(refused.detail).toContain('"Crest"');
    expectStatus(await patch({ crest: image.path }), 200);
    expectStatus(await call('DELETE', `/v1/assets/${other.id}`), 204);
  });
});

describe('a font of the library', () => {
  const text = (fontFamily: string) => ({
    type: 'text',
    x: 0,
    y: 0,
    width: 600,
    height: 100,
    text: 'Hello',
    fontSize: 60,
    fontFamily,
  });
  const group = (fontFamily: string) => ({
    type: 'group',
    x: 0,
    y: 0,
    width: 600,
    height: 100,
    children: [{ type: 'box', x: 0, y: 0, width: 1, height: 1 }, text(fontFamily)],
  });

  it('is named by a text or clock element by its path or URL, and checked when the scene is saved', async () => {
    const ch = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Fonts' }), 201);
    const scenes = `/v1/channels/${ch.id}/scenes`;
    const save = (elements: unknown[]) => call<Scene>('POST', scenes, { name: 'Strap', definition: { elements } });
    expectStatus(await save([text(font.path), text(font.url)]), 201);

    const notHeld = `/assets/${sha256(Buffer.from('no such font'))}.woff2`;
    const missing = expectProblem(await save([text('Inter'), group(notHeld)]), 422, 'unknown_asset');
    expect(errorPaths(missing)).toEqual(['definition.elements.1.children.1.fontFamily']);
    expect(missing.assets).toEqual([notHeld]);

    for (const bad of [image.path, 'Comic Sans MS', 'https://fonts.example.com/house.woff2']) {
      const problem = expectProblem(await save([text(bad)]), 400, 'invalid_request');
      expect(errorPaths(problem)).toEqual(['definition.elements.0.fontFamily']);
    }
  });

  it('cannot be deleted while an element names it (409 naming the scene), then can', async () => {
    const own = await upload(OTHER_WOFF2, 'display.woff2');
    const ch = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Studio' }), 201);
    const scenes = `/v1/channels/${ch.id}/scenes`;
    const definition = { elements: [group(own.url)] };
    const scene = expectStatus(await call<Scene>('POST', scenes, { name: 'Studio strap', definition }), 201);
    const refused = expectProblem(await call('DELETE', `/v1/assets/${own.id}`), 409, 'conflict');
    expect(refused.detail).toContain('"Studio strap"');
    expect(refused.scenes).toEqual([{ id: scene.id, name: 'Studio strap', channelId: ch.id }]);
    expectStatus(await call('DELETE', `${scenes}/${scene.id}`), 204);
    expectStatus(await call('DELETE', `/v1/assets/${own.id}`), 204);
  });
});

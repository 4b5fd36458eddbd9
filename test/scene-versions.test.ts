/**
 * Scene versions (docs/scenes.md, "Versions"): every create and save of a scene is kept with who saved it, listed
 * newest first at `GET …/scenes/{sceneId}/versions`, and any of them can be restored with
 * `POST …/scenes/{sceneId}/versions/{version}/restore`, which saves it again as a replacement would.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKey, setupOwner } from './helpers/access-fixtures.js';
import { api, expectStatus, type Api, type Channel, type Scene as SceneFields } from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';

type Scene = SceneFields & { createdAt: string; updatedAt: string };

interface Version {
  version: number;
  name: string;
  savedAt: string;
  savedBy: { type: string; id: string; name: string };
}

let server: TestServer;
let root: Api;

beforeEach(async () => {
  server = await startTestServer();
  root = api(server.url, server.key);
});
afterEach(async () => {
  await server.dispose();
});

const STRIP = {
  inputs: [{ name: 'line', type: 'text', default: 'Hello' }],
  elements: [{ type: 'text', x: 126, y: 900, width: 740, height: 80, text: '{line}', fontSize: 48 }],
};
const withLayer = (layer: number, text = '{line}') => ({
  ...STRIP,
  layer,
  elements: [{ ...STRIP.elements[0], text }],
});

async function channelWithStrip(): Promise<{ channel: Channel; scene: Scene }> {
  const channel = expectStatus(await root<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
  const scene = expectStatus(
    await root<Scene>('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Strip', definition: STRIP }),
    201,
  );
  return { channel, scene };
}

const sceneUrl = (s: Scene) => `/v1/channels/${s.channelId}/scenes/${s.id}`;
const versions = async (call: Api, s: Scene) =>
  expectStatus(await call<{ data: Version[] }>('GET', `${sceneUrl(s)}/versions`), 200).data;
const save = async (call: Api, s: Scene, body: unknown) =>
  expectStatus(await call<Scene>('PUT', sceneUrl(s), body), 200);

describe('scene versions', () => {
  it('keeps each save with who made it, newest first; restoring one saves it again as a new version', async () => {
    const { scene: v1 } = await channelWithStrip();
    const designerKey = await createKey(root, ['channels:read', 'channels:write']);
    const designer = api(server.url, designerKey.secret);
    const owner = await setupOwner(server, 'designer@example.com');
    const v2 = await save(designer, v1, { name: 'Strip 2', definition: withLayer(3) });
    const v3 = await save(owner.call, v1, { definition: withLayer(3, 'Now: {line}') });
    expect(v3.definition).not.toEqual(v1.definition);

    const listed = await versions(root, v1);
    expect(listed.map((v) => [v.version, v.name])).toEqual([
      [3, 'Strip 2'],
      [2, 'Strip 2'],
      [1, 'Strip'],
    ]);
    expect(listed[1]!.savedBy).toEqual({ type: 'key', id: designerKey.id, name: designerKey.name });
    expect(listed[0]!.savedBy).toEqual({ type: 'user', id: owner.userId, name: 'designer@example.com' });
    expect(listed[2]!.savedBy).toMatchObject({ type: 'key', name: 'bootstrap (ONAIR_BOOTSTRAP_KEY)' });
    expect(listed.map((v) => v.savedAt)).toEqual([v3.updatedAt, v2.updatedAt, v1.createdAt]);

    const restored = expectStatus(await designer<Scene>('POST', `${sceneUrl(v1)}/versions/1/restore`), 200);
    expect(restored).toMatchObject({ id: v1.id, name: 'Strip', layer: 0, definition: v1.definition });
    expect(expectStatus(await root<Scene>('GET', sceneUrl(v1)), 200)).toEqual(restored);
    const after = await versions(root, v1);
    expect(after).toHaveLength(4);
    expect(after[0]).toEqual({
      version: 4,
      name: 'Strip',
      savedAt: restored.updatedAt,
      savedBy: { type: 'key', id: designerKey.id, name: designerKey.name },
    });
    expect(after.slice(1)).toEqual(listed);

    // They are stored: a restart keeps them, and the restored scene with them.
    await server.restart();
    root = api(server.url, server.key);
    expect(await versions(root, v1)).toEqual(after);
    expect(expectStatus(await root<Scene>('GET', sceneUrl(v1)), 200).definition).toEqual(v1.definition);
  });

  it('a restore passes the checks of a replacement: a scene on air keeps its layer', async () => {
    const { channel, scene } = await channelWithStrip();
    await save(root, scene, { definition: withLayer(5) });
    expectStatus(await root('POST', `/v1/channels/${channel.id}/program`, { sceneId: scene.id }), 200);
    expectProblem(await root('POST', `${sceneUrl(scene)}/versions/1/restore`), 409, 'conflict');
    expect(expectStatus(await root<Scene>('GET', sceneUrl(scene)), 200).layer).toBe(5);
    expect(await versions(root, scene)).toHaveLength(2);
    // Off air, the same restore goes through.
    expectStatus(await root('POST', `/v1/channels/${channel.id}/clear`, {}), 200);
    expect(expectStatus(await root<Scene>('POST', `${sceneUrl(scene)}/versions/1/restore`), 200).layer).toBe(0);
  });

  it('404 for an unknown scene or version; reading takes channels:read, restoring channels:write', async () => {
    const { channel, scene } = await channelWithStrip();
    const other = expectStatus(await root<Channel>('POST', '/v1/channels', { name: 'Other' }), 201);
    const missing = `/v1/channels/${channel.id}/scenes/sc_00000000000000000000000000000000`;
    expectProblem(await root('GET', `${missing}/versions`), 404, 'not_found');
    expectProblem(await root('POST', `${missing}/versions/1/restore`), 404, 'not_found');
    expectProblem(await root('GET', `/v1/channels/${other.id}/scenes/${scene.id}/versions`), 404, 'not_found');
    for (const version of ['2', '0', 'abc', '1.0', '99999999999']) {
      expectProblem(await root('POST', `${sceneUrl(scene)}/versions/${version}/restore`), 404, 'not_found');
    }
    const reader = api(server.url, (await createKey(root, ['channels:read'])).secret);
    expect(await versions(reader, scene)).toHaveLength(1);
    expectProblem(await reader('POST', `${sceneUrl(scene)}/versions/1/restore`), 403, 'forbidden');
    // A deleted scene's versions go with it.
    expectStatus(await root('DELETE', sceneUrl(scene)), 204);
    expectProblem(await root('GET', `${sceneUrl(scene)}/versions`), 404, 'not_found');
  });
});

/**
 * A scene from an imported OGraf graphic (docs/ograf.md, "A scene from a graphic", "On air"): its inputs from the GDD,
 * a trigger per custom action, the graphic's reference (with the path its files are served at) in every scene view a
 * renderer gets, `step` on program (0 at take, one more per continue up to the last, kept across a restart), a
 * trigger's payload delivered with the fired trigger, and the graphic's delete refused while a scene uses it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { api, expectStatus, tokenOf, type Channel, type Scene } from './helpers/api.js';
import { ografZip, uploadZip } from './helpers/ograf-packages.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient, isFrame, isSnapshot, type SnapshotMessage } from './helpers/ws-client.js';

const servers: TestServer[] = [];
const clients: RenderClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await s.dispose();
});

interface GraphicScene extends Scene {
  definition: {
    elements: unknown[];
    triggers: { name: string; customAction?: string; animation?: unknown }[];
    graphic: {
      id: string;
      graphicId: string;
      version: string;
      main: string;
      stepCount: number;
      base: string;
      data: unknown[];
    };
  };
}
type Program = { sceneId: string; layer: number; step?: number }[];

async function setup() {
  const server = await startTestServer();
  servers.push(server);
  const call = api(() => server.url, server.key);
  const graphic = (await uploadZip(server.url, server.key, ografZip())).body.data[0]!;
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'OGraf' }), 201);
  const scene = expectStatus(
    await call<GraphicScene>('POST', `/v1/channels/${channel.id}/scenes`, {
      name: 'L3',
      graphic: graphic.id,
      layer: 5,
    }),
    201,
  );
  const program = async () =>
    expectStatus(await call<{ program: Program }>('GET', `/v1/channels/${channel.id}/state`), 200).program;
  return { server, call, graphic, channel, scene, program };
}

describe('a scene from a graphic', () => {
  it('declares the graphic’s inputs and custom actions, and points renderers at its files', async () => {
    const { server, call, graphic, channel, scene } = await setup();
    expect(scene.layer).toBe(5);
    expect(scene.inputs.map((i) => i.name)).toEqual(graphic.inputs.map((i) => i.name));
    expect(scene.triggers).toEqual(['highlight', 'shake_it']);
    expect(scene.definition.elements).toEqual([]);
    expect(scene.definition.triggers).toEqual([
      { name: 'highlight', customAction: 'highlight' },
      { name: 'shake_it', customAction: 'shake-it' },
    ]);
    expect(scene.definition.graphic).toEqual({
      id: graphic.id,
      graphicId: 'com.example.lower-third',
      version: '1.0.0',
      main: 'graphic.mjs',
      stepCount: 2,
      base: graphic.filesPath,
      data: expect.arrayContaining([{ input: 'team_name', path: ['team', 'name'] }]) as unknown,
    });
    // An output page gets the scenes on its buses.
    expectStatus(await call('POST', `/v1/channels/${channel.id}/program`, { sceneId: scene.id }), 200);
    const renderer = await RenderClient.connect(server.url, channel.id, { token: tokenOf(channel.outputUrl) });
    clients.push(renderer);
    const snapshot = await renderer.next<SnapshotMessage>(isSnapshot);
    const seen = snapshot.scenes.find((s) => s.id === scene.id)!;
    expect(seen.definition.graphic!.base).toBe(graphic.filesPath);
    const module = await fetch(`${server.url}${seen.definition.graphic!.base}${seen.definition.graphic!.main}`);
    expect(module.status).toBe(200);
  });

  it('refuses a graphic the workspace does not hold, and custom actions on a native scene', async () => {
    const { call, channel } = await setup();
    const missing = await call('POST', `/v1/channels/${channel.id}/scenes`, { name: 'X', graphic: 'gr_nothere' });
    expect(expectProblem(missing, 400, 'invalid_request').errors).toEqual([
      { path: 'graphic', message: expect.stringContaining('no imported graphic') as string },
    ]);
    const native = await call('POST', `/v1/channels/${channel.id}/scenes`, {
      name: 'Y',
      definition: { triggers: [{ name: 'go', customAction: 'go' }] },
    });
    expect(expectProblem(native, 400, 'invalid_request').errors!.map((e) => e.path)).toContain(
      'definition.triggers.0.customAction',
    );
  });

  it('steps on continue from 0 up to the last step, keeps the step across a restart, and starts over on a take', async () => {
    const { server, call, channel, scene, program } = await setup();
    expectStatus(await call('POST', `/v1/channels/${channel.id}/program`, { sceneId: scene.id }), 200);
    expect((await program())[0]).toMatchObject({ sceneId: scene.id, layer: 5, step: 0 });
    expectStatus(await call('POST', `/v1/channels/${channel.id}/continue`), 200);
    expect((await program())[0]!.step).toBe(1);
    // stepCount 2: step 1 is the last; continue leaves it there (clear takes the graphic out).
    expectStatus(await call('POST', `/v1/channels/${channel.id}/continue`), 200);
    expect((await program())[0]!.step).toBe(1);
    // `step` goes to that step (held to the last), back as well as on.
    expectStatus(await call('POST', `/v1/channels/${channel.id}/continue`, { step: 0 }), 200);
    expect((await program())[0]!.step).toBe(0);
    expectStatus(await call('POST', `/v1/channels/${channel.id}/continue`, { layer: 5, step: 9 }), 200);
    expect((await program())[0]!.step).toBe(1);
    expectProblem(await call('POST', `/v1/channels/${channel.id}/continue`, { step: -1 }), 400, 'invalid_request');
    await server.restart();
    expect((await program())[0]!.step).toBe(1);
    expectStatus(
      await call('POST', `/v1/channels/${channel.id}/program`, { sceneId: scene.id, values: { name: 'B' } }),
      200,
    );
    expect((await program())[0]!.step).toBe(0);
  });

  it('delivers a trigger’s payload to renderers with the fired trigger', async () => {
    const { server, call, channel, scene } = await setup();
    const renderer = await RenderClient.connect(server.url, channel.id, { token: tokenOf(channel.outputUrl) });
    clients.push(renderer);
    await renderer.next(isSnapshot);
    expectStatus(await call('POST', `/v1/channels/${channel.id}/program`, { sceneId: scene.id }), 200);
    const payload = { color: '#ff0000', times: [1, 2] };
    expectStatus(await call('POST', `/v1/channels/${channel.id}/triggers/highlight`, { payload }), 200);
    const frame = await renderer.next((m) => isFrame(m) && (m.triggers?.length ?? 0) > 0);
    expect(isFrame(frame) && frame.triggers).toEqual([
      { name: 'highlight', sceneId: scene.id, at: expect.any(Number) as number, payload },
    ]);
    expectStatus(await call('POST', `/v1/channels/${channel.id}/triggers/shake_it`), 200);
    const plain = await renderer.next((m) => isFrame(m) && m.triggers?.[0]?.name === 'shake_it');
    expect(isFrame(plain) && plain.triggers![0]).not.toHaveProperty('payload');
  });

  it('fires a trigger on one layer only when the layer is named (as the OGraf Server API does for an instance)', async () => {
    const { server, call, graphic, channel, scene } = await setup();
    // The same graphic again on layer 6: both scenes have the trigger `highlight`.
    const other = expectStatus(
      await call<GraphicScene>('POST', `/v1/channels/${channel.id}/scenes`, {
        name: 'L3 b',
        graphic: graphic.id,
        layer: 6,
      }),
      201,
    );
    const renderer = await RenderClient.connect(server.url, channel.id, { token: tokenOf(channel.outputUrl) });
    clients.push(renderer);
    await renderer.next(isSnapshot);
    for (const s of [scene, other]) {
      expectStatus(await call('POST', `/v1/channels/${channel.id}/program`, { sceneId: s.id }), 200);
    }
    const fired = async (body: object) => {
      const since = renderer.mark();
      expectStatus(await call('POST', `/v1/channels/${channel.id}/triggers/highlight`, body), 200);
      const frame = await renderer.next((m) => isFrame(m) && (m.triggers?.length ?? 0) > 0, { since });
      return (isFrame(frame) ? frame.triggers! : []).map((t) => t.sceneId).sort();
    };
    expect(await fired({})).toEqual([scene.id, other.id].sort());
    expect(await fired({ layer: 6 })).toEqual([other.id]);
    expect(await fired({ layer: 5, payload: { color: 'red' } })).toEqual([scene.id]);
    // Nothing on layer 7 has it.
    const none = await call('POST', `/v1/channels/${channel.id}/triggers/highlight`, { layer: 7 });
    expectProblem(none, 404, 'unknown_trigger');
  });

  it('refuses to delete a graphic a scene uses, and deletes it once the scene is gone', async () => {
    const { call, graphic, channel, scene } = await setup();
    const refused = expectProblem(await call('DELETE', `/v1/graphics/${graphic.id}`), 409, 'conflict');
    expect(refused.scenes).toEqual([{ id: scene.id, name: 'L3', channelId: channel.id }]);
    expectStatus(await call('DELETE', `/v1/channels/${channel.id}/scenes/${scene.id}`), 204);
    expectStatus(await call('DELETE', `/v1/graphics/${graphic.id}`), 204);
    expect((await fetch(`${graphic.filesUrl}graphic.mjs`)).status).toBe(404);
    expectProblem(await call('GET', `/v1/graphics/${graphic.id}`), 404, 'not_found');
  });
});

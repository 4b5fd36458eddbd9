/**
 * The OGraf Server API (draft 1.0.0) under /ograf/v1 (docs/ograf.md, "Server API"): every answer matches the schema
 * the draft's OpenAPI document gives its route, method and status (test/helpers/ograf-server-api.ts), with onair's
 * keys and permissions, each route doing what the REST API's operation does (the channel's state says so).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectStatus, tokenOf, type Api, type Channel } from './helpers/api.js';
import { createKey } from './helpers/access-fixtures.js';
import { manifest, ografZip, uploadZip } from './helpers/ograf-packages.js';
import * as Draft from './helpers/ograf-server-api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient } from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
let channel: Channel;
let lowerThird: { id: string; layer: number };
let scoreboard: { id: string; layer: number };

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Studio A' }), 201);
  const add = async (template: string) =>
    expectStatus(
      await call<{ id: string; layer: number }>('POST', `/v1/channels/${channel.id}/scenes`, {
        name: template,
        template,
      }),
      201,
    );
  lowerThird = await add('lower-third');
  scoreboard = await add('scoreboard');
});
afterAll(async () => {
  await server?.dispose();
});

const R = () => `/ograf/v1/renderers/${channel.id}`;
const G = (sceneId: string) => `onair.scene.${sceneId}`;

/** The answer, checked against the draft's OpenAPI schema for its route, method and status (which throws, naming each failure, when it does not match). */
async function draft<T>(method: string, path: string, body?: unknown, status = 200): Promise<T> {
  const res = await call(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return Draft.answer<T>(method, path, status, res.body);
}

async function program() {
  const state = expectStatus(
    await call<{
      frame: number;
      program: { layer: number; sceneId: string; values: object }[];
      preview: { layer: number; sceneId: string }[];
    }>('GET', `/v1/channels/${channel.id}/state`),
    200,
  );
  return state;
}

describe('the OGraf Server API', () => {
  it('answers the server, its renderers (one per channel) and a renderer', async () => {
    expect(await draft<Draft.ServerInfo>('GET', '/ograf/v1/')).toMatchObject({ name: 'onair' });
    const { renderers } = await draft<Draft.RendererList>('GET', '/ograf/v1/renderers');
    expect(renderers.map((r) => r.id)).toEqual([channel.id]);
    const { renderer } = await draft<Draft.RendererInfoAnswer>('GET', R());
    expect(renderer).toMatchObject({
      id: channel.id,
      name: 'Studio A',
      status: { status: 'WARNING', message: expect.stringContaining('No output page shows the program') as string },
      renderCharacteristics: { resolution: { width: 1920, height: 1080 } },
      renderTargetSchema: { properties: { layer: { type: 'integer' } } },
      renderTargets: [],
    });
  });

  it("answers the renderer's status from the output pages showing its program: OK, then ERROR once one fails", async () => {
    const page = await RenderClient.connect(server.url, channel.id, { token: tokenOf(channel.outputUrl) });
    try {
      await page.next((m) => m.type === 'snapshot');
      const report = async (extra: object = {}) => {
        const state = await program();
        page.send({
          op: 'painted',
          frame: state.frame,
          layers: state.program.map((e) => ({ layer: e.layer, sceneId: e.sceneId, itemId: null, inDone: true })),
          fps: 50,
          width: 1920,
          height: 1080,
          kind: 'browser',
          bus: 'program',
          ...extra,
        });
      };
      const status = async () => (await draft<Draft.RendererInfoAnswer>('GET', R())).renderer.status;
      await report();
      await expect.poll(status, { timeout: 10_000 }).toMatchObject({ status: 'OK' });
      // Reports are taken at most 5 a second per page: this one comes after that window.
      await new Promise((r) => setTimeout(r, 1_100));
      await report({ errors: [{ message: 'crest.png did not load', url: null }] });
      await expect
        .poll(status, { timeout: 10_000 })
        .toEqual({ status: 'ERROR', message: expect.stringContaining('crest.png did not load') as string });
    } finally {
      page.close();
    }
  });

  it('loads a scene (cued), plays it (taken), updates, fires a custom action and stops it', async () => {
    const target = { layer: lowerThird.layer };
    const loaded = await draft<Draft.ActionAnswer>('POST', `${R()}/target/graphicInstance/load`, {
      renderTarget: target,
      graphicId: G(lowerThird.id),
      params: { data: { name: 'Ada Lovelace', title: 'Mathematician' } },
    });
    const instance = loaded.graphicInstanceId;
    expect((await program()).preview).toMatchObject([
      { layer: target.layer, sceneId: lowerThird.id, values: { name: 'Ada Lovelace' } },
    ]);
    expect((await program()).program).toEqual([]);

    const info = await draft<Draft.RenderTargetInfo>(
      'GET',
      `${R()}/target?renderTarget=${encodeURIComponent(JSON.stringify(target))}`,
    );
    expect(info.graphicInstances).toEqual([
      { graphicInstanceId: instance, graphic: { id: G(lowerThird.id), name: 'lower-third' } },
    ]);

    const played = await draft<Draft.PlayActionAnswer>('POST', `${R()}/target/graphicInstance/playAction`, {
      renderTarget: target,
      graphicInstanceId: instance,
      params: {},
    });
    expect(played).toMatchObject({ graphicInstanceId: instance, statusCode: 200 });
    expect((await program()).program).toMatchObject([
      { layer: target.layer, sceneId: lowerThird.id, values: { name: 'Ada Lovelace' } },
    ]);

    await draft<Draft.ActionAnswer>('POST', `${R()}/target/graphicInstance/updateAction`, {
      renderTarget: target,
      graphicInstanceId: instance,
      params: { data: { name: 'Grace Hopper', accent: '#00ff00' } },
    });
    const after = expectStatus(
      await call<{ program: { values: object }[]; inputs: Record<string, unknown> }>(
        'GET',
        `/v1/channels/${channel.id}/state`,
      ),
      200,
    );
    expect(after.program[0]?.values).toMatchObject({ name: 'Grace Hopper', title: 'Mathematician' });
    // `accent` is the channel's input: set as PATCH …/inputs sets it.
    expect(after.inputs.accent).toBe('#00ff00');

    const { renderer } = await draft<Draft.RendererInfoAnswer>('GET', R());
    expect(renderer.renderTargets.map((t) => t.renderTarget)).toEqual([target]);

    await draft<Draft.ActionAnswer>('POST', `${R()}/target/graphicInstance/stopAction`, {
      renderTarget: target,
      graphicInstanceId: instance,
      params: {},
    });
    expect((await program()).program).toEqual([]);
  });

  it('loads the next name over the one playing as an instance of its own: playing it takes it, stopping it clears it', async () => {
    const target = { layer: lowerThird.layer };
    const action = (name: string, graphicInstanceId: string, params: object = {}) =>
      draft<Draft.ActionAnswer>('POST', `${R()}/target/graphicInstance/${name}`, {
        renderTarget: target,
        graphicInstanceId,
        params,
      });
    const load = async (name: string) =>
      (
        await draft<Draft.ActionAnswer>('POST', `${R()}/target/graphicInstance/load`, {
          renderTarget: target,
          graphicId: G(lowerThird.id),
          params: { data: { name } },
        })
      ).graphicInstanceId;
    const ada = await load('Ada Lovelace');
    await action('playAction', ada);
    const grace = await load('Grace Hopper');
    expect(grace).not.toBe(ada);
    const info = await draft<Draft.RenderTargetInfo>(
      'GET',
      `${R()}/target?renderTarget=${encodeURIComponent(JSON.stringify(target))}`,
    );
    expect(info.graphicInstances.map((i) => i.graphicInstanceId)).toEqual([ada, grace]);

    // Playing the one loaded takes it (it answered unknown_trigger: the id was the one on air, so it "continued").
    await action('playAction', grace);
    const taken = await program();
    expect(taken.program).toMatchObject([{ sceneId: lowerThird.id, values: { name: 'Grace Hopper' } }]);
    expect(taken.preview).toEqual([]);

    await action('stopAction', grace);
    expect((await program()).program).toEqual([]);
  });

  it('fires a trigger as a custom action of the instance, and clears by filter', async () => {
    const target = { layer: scoreboard.layer };
    const { graphicInstanceId } = await draft<Draft.ActionAnswer>('POST', `${R()}/target/graphicInstance/load`, {
      renderTarget: target,
      graphicId: G(scoreboard.id),
      params: { data: {} },
    });
    await draft<Draft.PlayActionAnswer>('POST', `${R()}/target/graphicInstance/playAction`, {
      renderTarget: target,
      graphicInstanceId,
      params: {},
    });
    await draft<Draft.ActionAnswer>('POST', `${R()}/target/graphicInstance/customActions/flashScoreA`, {
      renderTarget: target,
      graphicInstanceId,
      params: { payload: null },
    });
    const unknown = await call('POST', `${R()}/target/graphicInstance/customActions/nope`, {
      renderTarget: target,
      graphicInstanceId,
      params: { payload: null },
    });
    expect(unknown.status).toBe(404);
    Draft.answer('POST', `${R()}/target/graphicInstance/customActions/nope`, 404, unknown.body);

    const cleared = await draft<Draft.ClearGraphicsResponse>('PUT', `${R()}/target/graphicInstance/clear`, {
      filters: [{ graphicId: G(scoreboard.id) }],
    });
    expect(cleared.graphicInstances).toEqual([{ renderTarget: target, graphicInstanceId }]);
    expect((await program()).program).toEqual([]);
  });

  it('answers RFC 7807 problems: 404 for an unknown renderer, target, graphic, instance or renderer action', async () => {
    const problem = async (method: string, path: string, body?: unknown) => {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(Draft.answer(method, path, 404, res.body)).toMatchObject({ status: 404, title: 'Not found' });
    };
    await problem('GET', '/ograf/v1/renderers/ch_nope');
    await problem('GET', `${R()}/target?renderTarget=${encodeURIComponent('{"layer":100}')}`);
    await problem('POST', `${R()}/target/graphicInstance/load`, {
      renderTarget: { layer: 20 },
      graphicId: 'nope',
      params: { data: {} },
    });
    await problem('POST', `${R()}/target/graphicInstance/playAction`, {
      renderTarget: { layer: 20 },
      graphicInstanceId: 'L20-nope',
      params: {},
    });
    await problem('POST', `${R()}/customActions/anything`, { payload: null });
  });

  it('needs an onair key, and the permission the REST route needs', async () => {
    const anonymous = await call('GET', '/ograf/v1/renderers', undefined, { noAuth: true });
    expect(anonymous.status).toBe(401);
    const key = await createKey(call, ['channels:read']);
    const reader = api(server.url, key.secret);
    expect((await reader('GET', '/ograf/v1/renderers')).status).toBe(200);
    const refused = await reader('POST', `${R()}/target/graphicInstance/load`, {
      renderTarget: { layer: lowerThird.layer },
      graphicId: G(lowerThird.id),
      params: { data: {} },
    });
    expect(refused.status).toBe(403);
  });

  it('lists, reads and deletes imported graphics, and plays one on any layer through its steps', async () => {
    const up = await uploadZip(server.url, server.key, ografZip());
    expect(up.status).toBe(201);
    const graphicId = up.body.data[0]!.id;
    const { graphics } = await draft<Draft.GraphicList>('GET', '/ograf/v1/graphics');
    expect(graphics).toEqual([{ id: graphicId, name: 'Lower third', description: 'A name and a title' }]);
    const info = await draft<Draft.GraphicInfo>('GET', `/ograf/v1/graphics/${graphicId}`);
    expect(info.graphic).toEqual(manifest());
    expect(info.manifest).toEqual(manifest());

    // A channel of its own: the graphic's inputs would clash with the templates' on the other.
    const studio = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Studio B' }), 201);
    const R = () => `/ograf/v1/renderers/${studio.id}`;
    const program = async () =>
      expectStatus(
        await call<{ program: unknown[]; preview: { layer: number; sceneId: string }[] }>(
          'GET',
          `/v1/channels/${studio.id}/state`,
        ),
        200,
      );
    const target = { layer: 7 };
    const { graphicInstanceId } = await draft<Draft.ActionAnswer>('POST', `${R()}/target/graphicInstance/load`, {
      renderTarget: target,
      graphicId,
      params: { data: { name: 'Ada' } },
    });
    const loaded = await program();
    expect(loaded.preview).toMatchObject([{ layer: 7 }]);
    const play = (params: object) =>
      draft<Draft.PlayActionAnswer>('POST', `${R()}/target/graphicInstance/playAction`, {
        renderTarget: target,
        graphicInstanceId,
        params,
      });
    expect(await play({})).toMatchObject({ currentStep: 0 });
    expect(await play({ delta: 1 })).toMatchObject({ currentStep: 1 });
    // goto and delta go to that step, held to the graphic's two steps (0 and 1).
    expect(await play({ goto: 0 })).toMatchObject({ currentStep: 0 });
    expect(await play({ delta: 5 })).toMatchObject({ currentStep: 1 });
    expect(await play({ delta: -1 })).toMatchObject({ currentStep: 0 });
    expect(await play({ goto: 9 })).toMatchObject({ currentStep: 1 });
    const info7 = await draft<Draft.RenderTargetInfo>(
      'GET',
      `${R()}/target?renderTarget=${encodeURIComponent('{"layer":7}')}`,
    );
    expect(info7.graphicInstances).toEqual([{ graphicInstanceId, graphic: { id: graphicId, name: 'Lower third' } }]);
    await draft<Draft.ActionAnswer>('POST', `${R()}/target/graphicInstance/customActions/highlight`, {
      renderTarget: target,
      graphicInstanceId,
      params: { payload: { color: 'red' } },
    });
    const stop = () =>
      draft<Draft.ActionAnswer>('POST', `${R()}/target/graphicInstance/stopAction`, {
        renderTarget: target,
        graphicInstanceId,
        params: {},
      });
    await stop();
    expect((await program()).program).toEqual([]);
    // Loaded again and played with goto: taken straight to that step.
    await draft<Draft.ActionAnswer>('POST', `${R()}/target/graphicInstance/load`, {
      renderTarget: target,
      graphicId,
      params: { data: { name: 'Ada' } },
    });
    expect(await play({ goto: 1 })).toMatchObject({ currentStep: 1 });
    expect((await program()).program).toMatchObject([{ layer: 7, step: 1 }]);
    await stop();
    expect((await program()).program).toEqual([]);

    // In use by the scene the load made: refused, as DELETE /v1/graphics/{id} refuses it.
    const inUse = await call('DELETE', `/ograf/v1/graphics/${graphicId}`);
    expect(inUse.status).toBe(409);
    // The draft lists no 409 for this route: the problem is checked against its ErrorResponse.
    Draft.component('ErrorResponse', inUse.body);
    const scene = loaded.preview[0]!.sceneId;
    expectStatus(await call('DELETE', `/v1/channels/${studio.id}/scenes/${scene}`), 204);
    await draft<Draft.Empty>('DELETE', `/ograf/v1/graphics/${graphicId}`);
    expect((await call('GET', `/ograf/v1/graphics/${graphicId}`)).status).toBe(404);
  });
});

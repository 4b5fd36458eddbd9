/**
 * The EBU OGraf Server API, draft 1.0.0 (docs/ograf.md, "Server API"), under /ograf/v1 (this app is mounted at
 * /ograf) with onair's keys: each
 * channel is a renderer (its id the channel's), each layer a render target `{ "layer": n }`, the scene on a layer a
 * graphic instance. load cues the scene (preview), playAction takes it (or, on air, continues it), updateAction
 * updates it, stopAction clears it, a custom action fires its trigger: the REST API's operations, as the caller.
 */
import { Hono, type Context } from 'hono';
import type { ServerApi } from 'ograf';
import type { z } from 'zod';
import type { BusEntry } from '@onair/protocol';
import type { ChannelState } from '../../engine/index.js';
import { AppError } from '../../errors.js';
import { clear, continueOnAir, cue, fireTrigger, take, update } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { authenticate } from '../middleware/authenticate.js';
import { jsonBody } from '../middleware/json-body.js';
import { validationError } from '../problem.js';
import {
  ClearBody,
  CustomActionBody,
  LoadBody,
  PlayBody,
  RendererActionBody,
  StopBody,
  UpdateBody,
  type ClearFilter,
} from './bodies.js';
import type { Answer } from './answers.js';
import { channelCalls, type ChannelCalls } from './channel-calls.js';
import { findInstance, rendererInfo, targetInfo } from './renderer-views.js';
import { graphicRoutes } from './graphic-routes.js';
import { sceneToLoad } from './load-scene.js';
import { entryOfInstance, graphicIdOf, instanceId, renderTargetOf, sceneGraphicId } from './render-targets.js';

export const OGRAF_SERVER_API_VERSION = '1.0.0';

/** The 200 answer, typed by the draft's response for that path and method. */
function answer<P extends keyof ServerApi.paths, M extends 'get' | 'post' | 'put' | 'delete'>(
  c: Context<ApiEnv>,
  body: Answer<P, M>,
): Response {
  return c.json(body as object);
}

function bodyOf<T>(c: Context<ApiEnv>, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(c.get('body') ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

export function ografServerRoutes(deps: ApiDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  // Only the API: graphic files under /ograf/files are read with their own capability (graphic-file routes).
  for (const path of ['/v1', '/v1/*']) {
    app.use(path, authenticate(deps.auth));
    app.use(path, jsonBody());
  }
  const calls = (c: Context<ApiEnv>) => channelCalls(deps.runner, c);

  // The draft's base URL is …/ograf/v1 and its first path `/`: both spellings answer.
  const serverInfo = (c: Context<ApiEnv>) =>
    answer<'/', 'get'>(c, {
      name: 'onair',
      description: 'onair: live broadcast graphics. Renderers are channels; render targets are their layers.',
      version: deps.info?.version ?? '0',
      author: { name: 'onair' },
    });
  app.get('/v1', serverInfo);
  app.get('/v1/', serverInfo);

  graphicRoutes(app, calls, answer);

  app.get('/v1/renderers', async (c) => {
    const channels = await calls(c).channels();
    return answer<'/renderers', 'get'>(c, {
      renderers: channels.map((ch) => ({ id: ch.id, name: ch.name, description: description(ch) })),
    });
  });

  app.get('/v1/renderers/:rendererId', async (c) => {
    const api = calls(c);
    const id = c.req.param('rendererId');
    const [channel, state, scenes, outputs] = await Promise.all([
      api.channel(id),
      api.state(id),
      api.scenes(id),
      api.outputs(id),
    ]);
    return answer<'/renderers/{rendererId}', 'get'>(c, {
      renderer: { ...rendererInfo(channel, state, scenes, outputs), description: description(channel) },
    });
  });

  app.get('/v1/renderers/:rendererId/target', async (c) => {
    const api = calls(c);
    const id = c.req.param('rendererId');
    const target = renderTargetOf(c.req.query('renderTarget') ?? '');
    const [state, scenes] = await Promise.all([api.state(id), api.scenes(id)]);
    return answer<'/renderers/{rendererId}/target', 'get'>(c, targetInfo(target.layer, state, scenes));
  });

  app.post('/v1/renderers/:rendererId/customActions/:customActionId', async (c) => {
    bodyOf(c, RendererActionBody);
    await calls(c).channel(c.req.param('rendererId'));
    throw new AppError('not_found', `A channel has no custom action ${c.req.param('customActionId')}.`);
  });

  app.put('/v1/renderers/:rendererId/target/graphicInstance/clear', async (c) => {
    const { filters } = bodyOf(c, ClearBody);
    const api = calls(c);
    const id = c.req.param('rendererId');
    const [state, scenes] = await Promise.all([api.state(id), api.scenes(id)]);
    const graphicOf = (sceneId: string) => {
      const scene = scenes.find((s) => s.id === sceneId);
      return scene ? graphicIdOf(scene) : sceneGraphicId(sceneId);
    };
    const cleared = state.program.filter(
      (e) => filters.length === 0 || filters.some((f) => matches(f, e, graphicOf(e.sceneId), state)),
    );
    for (const entry of cleared) await api.run(clear, id, { layer: entry.layer });
    return answer<'/renderers/{rendererId}/target/graphicInstance/clear', 'put'>(c, {
      graphicInstances: cleared.map((e) => ({ renderTarget: { layer: e.layer }, graphicInstanceId: instanceId(e) })),
    });
  });

  app.post('/v1/renderers/:rendererId/target/graphicInstance/load', async (c) => {
    const body = bodyOf(c, LoadBody);
    const api = calls(c);
    const id = c.req.param('rendererId');
    const target = renderTargetOf(body.renderTarget);
    const scene = await sceneToLoad(api, id, body.graphicId, target.layer);
    const values = await api.splitData(id, scene, body.params.data);
    await api.run(cue, id, { sceneId: scene.id, values });
    const { program } = await api.state(id);
    return answer<'/renderers/{rendererId}/target/graphicInstance/load', 'post'>(c, {
      graphicInstanceId: instanceId({ layer: scene.layer, sceneId: scene.id }, 'preview', program),
      statusCode: 200,
      statusMessage: 'Loaded (on preview)',
    });
  });

  app.post('/v1/renderers/:rendererId/target/graphicInstance/playAction', async (c) => {
    const body = bodyOf(c, PlayBody);
    const { api, id, found } = await addressed(c, body);
    const { layer } = found;
    const step = stepToPlay(
      body.params,
      found.onProgram ? found.step : null,
      found.scene.definition.graphic !== undefined,
    );
    if (!found.onProgram) await api.run(take, id, { layer });
    if (found.onProgram || (step ?? 0) > 0)
      await api.run(continueOnAir, id, { layer, ...(step === undefined ? {} : { step }) });
    const after = (await api.state(id)).program.find((e) => e.layer === found.layer);
    return answer<'/renderers/{rendererId}/target/graphicInstance/playAction', 'post'>(c, {
      graphicInstanceId: body.graphicInstanceId,
      statusCode: 200,
      currentStep: after?.step ?? 0,
    });
  });

  app.post('/v1/renderers/:rendererId/target/graphicInstance/updateAction', async (c) => {
    const body = bodyOf(c, UpdateBody);
    const { api, id, found } = await addressed(c, body);
    const values = await api.splitData(id, found.scene, body.params.data);
    if (found.onProgram && Object.keys(values).length > 0) await api.run(update, id, { layer: found.layer, values });
    else if (!found.onProgram)
      await api.run(cue, id, { sceneId: found.scene.id, values: { ...found.values, ...values } });
    return answer<'/renderers/{rendererId}/target/graphicInstance/updateAction', 'post'>(c, {
      graphicInstanceId: body.graphicInstanceId,
      statusCode: 200,
    });
  });

  app.post('/v1/renderers/:rendererId/target/graphicInstance/stopAction', async (c) => {
    const body = bodyOf(c, StopBody);
    const { api, id, found } = await addressed(c, body);
    if (found.onProgram) await api.run(clear, id, { layer: found.layer });
    return answer<'/renderers/{rendererId}/target/graphicInstance/stopAction', 'post'>(c, {
      graphicInstanceId: body.graphicInstanceId,
      statusCode: 200,
    });
  });

  app.post('/v1/renderers/:rendererId/target/graphicInstance/customActions/:customActionId', async (c) => {
    const body = bodyOf(c, CustomActionBody);
    const { api, id, found } = await addressed(c, body);
    // A controller knows the manifest's action id (`shake-it`); the scene's trigger running it may be named otherwise.
    const action = c.req.param('customActionId');
    const name = found.scene.definition.triggers.find((t) => t.customAction === action)?.name ?? action;
    // The addressed instance only: another scene on air with a trigger of that name is left alone.
    await api.run(fireTrigger, id, { name, payload: body.params.payload, layer: found.layer });
    return answer<'/renderers/{rendererId}/target/graphicInstance/customActions/{customActionId}', 'post'>(c, {
      graphicInstanceId: body.graphicInstanceId,
      statusCode: 200,
    });
  });

  /** The instance a body names, on the renderer of the path; 404 when the target does not hold it. */
  async function addressed(c: Context<ApiEnv>, body: { renderTarget: unknown; graphicInstanceId: string }) {
    const api: ChannelCalls = calls(c);
    const id = c.req.param('rendererId') ?? '';
    const target = renderTargetOf(body.renderTarget);
    const [state, scenes] = await Promise.all([api.state(id), api.scenes(id)]);
    const found = findInstance(state, scenes, target.layer, body.graphicInstanceId);
    if (!found) throw new AppError('not_found', `No graphic instance ${body.graphicInstanceId} on that render target.`);
    return { api, id, found };
  }

  return app;
}

function description(channel: { width: number; height: number; fps: number }): string {
  return `An onair channel: ${channel.width}×${channel.height} at ${channel.fps} fps; render targets are its layers 0–99.`;
}

/**
 * The step a playAction asks for (`goto`, or `delta` from the step on program): undefined for the next one (a native
 * scene has no steps: its `next` trigger plays). Not yet on program, the take plays step 0 first.
 */
function stepToPlay(params: { goto?: number; delta?: number }, onStep: number | null, graphic: boolean) {
  if (!graphic) return undefined;
  if (params.goto !== undefined) return Math.max(0, Math.trunc(params.goto));
  const delta = Math.trunc(params.delta ?? 1);
  if (onStep === null) return Math.max(0, delta - 1);
  return delta === 1 ? undefined : Math.max(0, onStep + delta);
}

/** Whether a clear filter names `entry`, an instance playing (its instance id resolved as the other routes do). */
function matches(filter: ClearFilter, entry: BusEntry, graphicId: string, state: ChannelState): boolean {
  if (filter.renderTarget !== undefined && renderTargetOf(filter.renderTarget).layer !== entry.layer) return false;
  if (filter.graphicId !== undefined && filter.graphicId !== graphicId) return false;
  if (filter.graphicInstanceId === undefined) return true;
  const onLayer = (e: { layer: number }) => e.layer === entry.layer;
  const named = entryOfInstance(filter.graphicInstanceId, state.program.filter(onLayer), state.preview.filter(onLayer));
  return named?.entry === entry;
}

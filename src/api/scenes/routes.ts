import { OpenAPIHono, z } from '@hono/zod-openapi';
import { newId } from '../../ids.js';
import { assertRoom } from '../../limits/resource-limits.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { isDryRun, routeDefiner } from '../route.js';
import { ChannelIdParam, ListQuery, listOf, page, json } from '../schemas/common.js';
import { assertDeletable } from './on-air-checks.js';
import { sceneView } from './scene-view.js';
import { DRY_RUN_SCENE_ID, findScene, sceneToCreate, sceneToReplace } from './scene-writes.js';
import { SceneIn, SceneOut, SceneUpdate } from './schemas.js';

const SceneParams = ChannelIdParam.extend({
  sceneId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'sceneId', in: 'path' } }),
});

/** `?dryRun=1`: every check of the write, nothing saved (docs/api.md, "Dry runs of scene writes"). */
const DryRunQuery = z.object({
  dryRun: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .openapi({
      description:
        '`1` or `true`: run every check and answer the scene as it would be saved (200), saving nothing. ' +
        'Counts against the `reads` bucket.',
    }),
});

/** Writes that can be dry-run count those against reads: an editor validates as the user types. */
const WRITE = { permission: 'channels:write', bucket: 'creates', dryRunBucket: 'reads' } as const;

export function sceneRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeDefiner(deps);
  const { engine, store } = deps;

  app.openapi(
    route(WRITE, {
      method: 'post',
      path: '/channels/{id}/scenes',
      tags: ['Scenes'],
      summary: 'Add a scene from a template or a definition (or, with ?dryRun=1, only check it)',
      request: { params: ChannelIdParam, query: DryRunQuery, body: { required: true, ...json(SceneIn) } },
      responses: {
        200: {
          description: `Dry run: the scene as it would be created, id \`${DRY_RUN_SCENE_ID}\`; nothing saved`,
          ...json(SceneOut),
        },
        201: { description: 'Created', ...json(SceneOut) },
        409: { description: "An input clashes with the channel's" },
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const dry = isDryRun(c.req.valid('query').dryRun);
      assertRoom(
        engine.scenes(id).length,
        deps.limits.scenesPerChannel,
        'A channel has at most {limit} scenes',
        'ONAIR_LIMIT_SCENES_PER_CHANNEL',
      );
      const scene = sceneToCreate(engine, id, c.req.valid('json'), dry ? DRY_RUN_SCENE_ID : newId('sc'));
      if (dry) return c.json(sceneView(scene), 200);
      await store.insertScene(scene);
      engine.upsertScene(scene);
      return c.json(sceneView(scene), 201);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: '/channels/{id}/scenes',
        tags: ['Scenes'],
        summary: "List a channel's scenes",
        request: { params: ChannelIdParam, query: ListQuery },
        responses: { 200: { description: 'Scenes in creation order', ...json(listOf(SceneOut, 'SceneList')) } },
      },
    ),
    (c) => {
      const { limit, cursor } = c.req.valid('query');
      const scenes = engine.scenes(c.req.valid('param').id).filter((s) => cursor === undefined || s.id > cursor);
      scenes.sort((a, b) => (a.id < b.id ? -1 : 1));
      return c.json(page(scenes.slice(0, limit + 1).map(sceneView), limit), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: '/channels/{id}/scenes/{sceneId}',
        tags: ['Scenes'],
        summary: 'Read a scene',
        request: { params: SceneParams },
        responses: { 200: { description: 'The scene', ...json(SceneOut) } },
      },
    ),
    (c) => {
      const { id, sceneId } = c.req.valid('param');
      return c.json(sceneView(findScene(engine, id, sceneId)), 200);
    },
  );

  app.openapi(
    route(WRITE, {
      method: 'put',
      path: '/channels/{id}/scenes/{sceneId}',
      tags: ['Scenes'],
      summary: "Replace a scene's definition (or, with ?dryRun=1, only check the replacement)",
      request: { params: SceneParams, query: DryRunQuery, body: { required: true, ...json(SceneUpdate) } },
      responses: {
        200: { description: 'The scene (dry run: as it would be saved; nothing saved)', ...json(SceneOut) },
        409: { description: "An input clashes with the channel's, or the layer changes while on a bus" },
      },
    }),
    async (c) => {
      const { id, sceneId } = c.req.valid('param');
      const scene = sceneToReplace(engine, id, sceneId, c.req.valid('json'));
      if (isDryRun(c.req.valid('query').dryRun)) return c.json(sceneView(scene), 200);
      await store.updateScene(scene);
      engine.upsertScene(scene);
      return c.json(sceneView(scene), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:write', bucket: 'creates' },
      {
        method: 'delete',
        path: '/channels/{id}/scenes/{sceneId}',
        tags: ['Scenes'],
        summary: 'Delete a scene (refused while it is on program or preview)',
        request: { params: SceneParams },
        responses: {
          204: { description: 'Deleted' },
          409: { description: 'The scene is on program or preview' },
        },
      },
    ),
    async (c) => {
      const { id, sceneId } = c.req.valid('param');
      findScene(engine, id, sceneId);
      assertDeletable(engine, id, sceneId);
      await store.deleteScene(sceneId);
      engine.removeScene(id, sceneId);
      return c.body(null, 204);
    },
  );

  return app;
}

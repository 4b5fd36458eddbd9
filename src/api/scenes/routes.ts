/** Scenes (docs/api.md, "Scenes and templates"): declarations over operations/scenes.ts. */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { createScene, deleteScene, getScene, listScenes, replaceScene } from '../../operations/index.js';
import { SceneIn, SceneUpdate } from '../../scenes/definition-schema.js';
import { DRY_RUN_SCENE_ID } from '../../scenes/scene-writes.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { operationBinder } from '../operation-route.js';
import { isDryRun } from '../route-docs.js';
import { ChannelIdParam, ListQuery, listOf, json } from '../schemas/common.js';
import { SceneOut } from './schemas.js';

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

export function sceneRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const bind = operationBinder(app, deps.runner);
  const tags = ['Scenes'];
  const one = '/channels/{id}/scenes/{sceneId}';

  bind(createScene, {
    method: 'post',
    path: '/channels/{id}/scenes',
    statusOf: (_out, c) => (isDryRun(c.req.query('dryRun')) ? 200 : 201),
    tags,
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
  });
  bind(listScenes, {
    method: 'get',
    path: '/channels/{id}/scenes',
    tags,
    summary: "List a channel's scenes",
    request: { params: ChannelIdParam, query: ListQuery },
    responses: { 200: { description: 'Scenes in creation order', ...json(listOf(SceneOut, 'SceneList')) } },
  });
  bind(getScene, {
    method: 'get',
    path: one,
    tags,
    summary: 'Read a scene',
    request: { params: SceneParams },
    responses: { 200: { description: 'The scene', ...json(SceneOut) } },
  });
  bind(replaceScene, {
    method: 'put',
    path: one,
    tags,
    summary: "Replace a scene's definition (or, with ?dryRun=1, only check the replacement)",
    request: { params: SceneParams, query: DryRunQuery, body: { required: true, ...json(SceneUpdate) } },
    responses: {
      200: { description: 'The scene (dry run: as it would be saved; nothing saved)', ...json(SceneOut) },
      409: { description: "An input clashes with the channel's, or the layer changes while on a bus" },
    },
  });
  bind(deleteScene, {
    method: 'delete',
    path: one,
    status: 204,
    tags,
    summary: 'Delete a scene (refused while it is on program or preview)',
    request: { params: SceneParams },
    responses: {
      204: { description: 'Deleted' },
      409: { description: 'The scene is on program or preview' },
    },
  });
  return app;
}

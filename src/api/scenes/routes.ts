/** Scenes (docs/api.md, "Scenes and templates"): declarations over operations/scenes.ts. */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import {
  createScene,
  deleteScene,
  getScene,
  listScenes,
  listSceneVersions,
  replaceScene,
  restoreSceneVersion,
} from '../../operations/index.js';
import { SceneIn, SceneUpdate } from '../../scenes/definition-schema.js';
import { DRY_RUN_SCENE_ID } from '../../scenes/scene-writes.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { isDryRun, UNKNOWN_ASSET } from '../route-docs.js';
import { routeBinder } from '../route-spec.js';
import { ChannelIdParam, ListQuery, listOf, pathParam } from '../schemas/common.js';
import { SceneOut, SceneVersionList } from './schemas.js';

const SceneParams = ChannelIdParam.extend({ sceneId: pathParam('sceneId') });
const VersionParams = SceneParams.extend({
  version: z
    .number()
    .int()
    .min(1)
    .openapi({ param: { name: 'version', in: 'path' }, example: 3, description: 'A version the scene keeps.' }),
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
  const route = routeBinder(app, deps.runner, ['Scenes']);
  const one = '/channels/{id}/scenes/{sceneId}';
  route(createScene, 'post /channels/{id}/scenes', {
    summary: 'Add a scene from a template or a definition (or, with ?dryRun=1, only check it)',
    params: ChannelIdParam,
    query: DryRunQuery,
    body: SceneIn,
    ok: [201, 'Created', SceneOut],
    more: {
      200: [`Dry run: the scene as it would be created, id \`${DRY_RUN_SCENE_ID}\`; nothing saved`, SceneOut],
      409: "An input clashes with the channel's",
      422: `limit_reached (scenes per channel), or ${UNKNOWN_ASSET}`,
    },
    statusOf: (_out, c) => (isDryRun(c.req.query('dryRun')) ? 200 : 201),
  });
  route(listScenes, 'get /channels/{id}/scenes', {
    summary: "List a channel's scenes",
    params: ChannelIdParam,
    query: ListQuery,
    ok: [200, 'Scenes in creation order', listOf(SceneOut, 'SceneList')],
  });
  route(getScene, `get ${one}`, { summary: 'Read a scene', params: SceneParams, ok: [200, 'The scene', SceneOut] });
  route(replaceScene, `put ${one}`, {
    summary: "Replace a scene's definition (or, with ?dryRun=1, only check the replacement)",
    params: SceneParams,
    query: DryRunQuery,
    body: SceneUpdate,
    ok: [200, 'The scene (dry run: as it would be saved; nothing saved)', SceneOut],
    more: { 409: "An input clashes with the channel's, or the layer changes while on a bus", 422: UNKNOWN_ASSET },
  });
  route(deleteScene, `delete ${one}`, {
    summary: 'Delete a scene (refused while it is on program or preview)',
    params: SceneParams,
    ok: [204, 'Deleted'],
    more: { 409: 'The scene is on program or preview' },
  });
  route(listSceneVersions, `get ${one}/versions`, {
    summary: "List a scene's saved versions, newest first, with who saved each",
    params: SceneParams,
    ok: [200, 'Its versions, newest first (the last 50 saves)', SceneVersionList],
  });
  route(restoreSceneVersion, `post ${one}/versions/{version}/restore`, {
    summary: 'Restore a version: save its name and definition again, as a replacement would (a new version)',
    params: VersionParams,
    ok: [200, 'The scene as restored', SceneOut],
    more: {
      404: 'No such scene in the channel, or the scene keeps no such version',
      409: "An input clashes with the channel's, or the layer changes while on a bus",
      422: UNKNOWN_ASSET,
    },
  });
  return app;
}

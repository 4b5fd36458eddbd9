/**
 * The OGraf graphics API (docs/ograf.md): declarations over operations/graphics.ts. The upload takes a zip or a form
 * (read by ./graphic-upload.ts before the operation runs); the files are served by ./file-routes.ts.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { AppError } from '../../errors.js';
import { deleteGraphic, getGraphic, listGraphics, uploadGraphic } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { bindOperation } from '../operation-route.js';
import { problem } from '../route-docs.js';
import { routeBinder } from '../route-spec.js';
import { json, ListQuery, listOf } from '../schemas/common.js';
import { GRAPHIC_UPLOAD_BODY, GraphicOut, GraphicParams, GraphicsUploaded } from './schemas.js';

const tags = ['Graphics'];

export function graphicRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeBinder(app, deps.runner, tags);
  bindOperation(app, deps.runner, uploadGraphic, {
    method: 'post',
    path: '/graphics',
    tags,
    summary: 'Import OGraf graphics: a zip, or the files of a package (one graphic per *.ograf.json found)',
    description:
      'The zip as the body (`Content-Type: application/zip`), or a multipart form with `graphic` parts (one zip, or ' +
      "the package's files named by their paths). Each manifest is checked against the OGraf v1 schema. Size: " +
      'ONAIR_GRAPHIC_UPLOAD_MAX_BYTES (default 50 MiB); unzipped, at most 4 times that and 2,000 files.',
    request: { body: GRAPHIC_UPLOAD_BODY },
    responses: {
      201: { description: 'Imported', ...json(GraphicsUploaded) },
      200: { description: 'The workspace held every graphic already', ...json(GraphicsUploaded) },
      409: problem('conflict (the workspace holds this id and version with other files)'),
      413: problem('payload_too_large (over ONAIR_GRAPHIC_UPLOAD_MAX_BYTES, or too much unzipped)'),
      422: problem(
        'invalid_graphic (`errors` names each path: `<manifest file>#<field path>`), or limit_reached ' +
          '(ONAIR_LIMIT_GRAPHICS_PER_WORKSPACE, ONAIR_LIMIT_ASSET_BYTES_PER_WORKSPACE)',
      ),
    },
    check: ({ body }) => {
      if (body instanceof AppError) throw body;
    },
    input: ({ body }) => body,
    statusOf: (out) => (out.data.some((g) => g.created) ? 201 : 200),
  });
  route(listGraphics, 'get /graphics', {
    summary: "The workspace's imported graphics",
    query: ListQuery,
    ok: [200, 'In creation order', listOf(GraphicOut, 'GraphicList')],
  });
  route(getGraphic, 'get /graphics/{graphicId}', {
    summary: 'Read an imported graphic',
    params: GraphicParams,
    ok: [200, 'The graphic', GraphicOut],
  });
  route(deleteGraphic, 'delete /graphics/{graphicId}', {
    summary: 'Delete an imported graphic and its files (refused while a scene uses it)',
    params: GraphicParams,
    ok: [204, 'Deleted'],
    more: { 409: 'conflict (scenes use the graphic: `scenes` names them)' },
  });
  return app;
}

/**
 * The asset library's API (docs/assets.md): declarations over operations/assets.ts. The upload takes a form or raw
 * bytes (read by ./upload-body.ts before the operation runs); the files themselves are served by ./serve-routes.ts.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { AppError } from '../../errors.js';
import { deleteAsset, getAsset, listAssets, uploadAsset } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { bindOperation } from '../operation-route.js';
import { problem } from '../route-docs.js';
import { routeBinder } from '../route-spec.js';
import { json, ListQuery, listOf } from '../schemas/common.js';
import { AssetOut, AssetParams, AssetUploaded, UPLOAD_BODY, UploadQuery } from './schemas.js';

const tags = ['Assets'];

export function assetRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeBinder(app, deps.runner, tags);
  bindOperation(app, deps.runner, uploadAsset, {
    method: 'post',
    path: '/assets',
    tags,
    summary: 'Upload an image or font to the workspace (the same bytes again answer the asset that holds them)',
    description:
      'PNG, JPEG, GIF, WebP or SVG images and WOFF2 fonts, typed from their bytes. A form with a `file` field, or the ' +
      "file as the body with `?name=`. SVGs are sanitised. Size: ONAIR_ASSET_MAX_BYTES (SVG: ONAIR_ASSET_SVG_MAX_BYTES); the workspace's " +
      'quota: ONAIR_LIMIT_ASSETS_PER_WORKSPACE and ONAIR_LIMIT_ASSET_BYTES_PER_WORKSPACE.',
    request: { query: UploadQuery, body: UPLOAD_BODY },
    responses: {
      201: { description: 'Stored', ...json(AssetUploaded) },
      200: { description: 'The workspace held these bytes already', ...json(AssetUploaded) },
      413: problem('payload_too_large (the file is over ONAIR_ASSET_MAX_BYTES or ONAIR_ASSET_SVG_MAX_BYTES)'),
      415: problem('unsupported_media_type (the bytes are none of the formats taken)'),
    },
    check: ({ body }) => {
      if (body instanceof AppError) throw body;
    },
    input: ({ body }) => body,
    statusOf: (out) => (out.created ? 201 : 200),
  });
  route(listAssets, 'get /assets', {
    summary: "The workspace's assets",
    query: ListQuery,
    ok: [200, 'In creation order', listOf(AssetOut, 'AssetList')],
  });
  route(getAsset, 'get /assets/{assetId}', {
    summary: 'Read an asset',
    params: AssetParams,
    ok: [200, 'The asset', AssetOut],
  });
  route(deleteAsset, 'delete /assets/{assetId}', {
    summary: 'Delete an asset (refused while a scene of the workspace uses it)',
    params: AssetParams,
    ok: [204, 'Deleted'],
    more: { 409: 'conflict (scenes use the asset: `scenes` names them)' },
  });
  return app;
}

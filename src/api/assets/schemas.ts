/** What the asset routes answer, for the OpenAPI document (docs/assets.md). Inputs are the operations'. */
import { z } from '@hono/zod-openapi';
import { pathParam } from '../schemas/common.js';

export const AssetOut = z
  .object({
    id: z.string(),
    sha256: z.string().openapi({ description: 'SHA-256 hex of the bytes as stored (an SVG: after sanitising).' }),
    type: z.string().openapi({ description: 'The MIME type, read from the bytes.', example: 'image/png' }),
    kind: z.enum(['image', 'font']),
    name: z.string().openapi({ description: 'The uploaded file name, for display.' }),
    bytes: z.number().int(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    createdAt: z.string(),
    url: z.string().openapi({ description: "Where it is served, on this server's base URL." }),
    path: z.string().openapi({
      description: 'The same as a path (`/assets/{sha256}.{ext}`), the same on every server that holds the asset.',
    }),
  })
  .openapi('Asset');

export const AssetUploaded = AssetOut.extend({
  created: z.boolean().openapi({ description: 'false: the workspace held these bytes already; this is that asset.' }),
}).openapi('AssetUploaded');

export const AssetParams = z.object({ assetId: pathParam('assetId').openapi({ example: 'ast_0190…' }) });

export const UploadQuery = z.object({
  name: z.string().max(200).optional().openapi({ description: 'Raw uploads: the file name shown in lists.' }),
});

/** The upload body as the OpenAPI document shows it: a form with a `file`, or the file's bytes as they are. */
export const UPLOAD_BODY = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: z.object({
        file: z.string().openapi({ type: 'string', format: 'binary', description: 'The file.' }),
        name: z.string().optional().openapi({ description: "The name to show; default: the file's name." }),
      }),
    },
    'application/octet-stream': {
      schema: z.string().openapi({ type: 'string', format: 'binary', description: 'The file, with `?name=`.' }),
    },
  },
};

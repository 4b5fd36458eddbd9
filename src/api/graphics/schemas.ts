/** What the graphic routes answer, for the OpenAPI document (docs/ograf.md). Inputs are the operations'. */
import { z } from '@hono/zod-openapi';
import { pathParam } from '../schemas/common.js';
import { InputDefOut } from '../scenes/schemas.js';

export const GraphicOut = z
  .object({
    id: z.string().openapi({ example: 'gr_0190…' }),
    graphicId: z.string().openapi({ description: "The manifest's `id`.", example: 'com.example.lower-third' }),
    version: z.string().openapi({ description: "The manifest's `version` (empty when it has none)." }),
    name: z.string(),
    description: z.string().nullable(),
    main: z.string().openapi({ description: 'The module file, relative to the graphic’s files.' }),
    stepCount: z.number().int().openapi({ description: 'Steps `continue` walks through (1: one; -1: unknown).' }),
    manifest: z.record(z.string(), z.unknown()).openapi({ description: 'The manifest as uploaded.' }),
    inputs: z.array(InputDefOut).openapi({ description: 'The inputs a scene made from it declares (from its GDD).' }),
    triggers: z
      .array(z.object({ name: z.string(), customAction: z.string() }))
      .openapi({ description: 'The triggers a scene made from it declares: one per custom action.' }),
    unmapped: z.array(z.string()).openapi({ description: 'GDD paths no input carries (arrays).' }),
    files: z.number().int(),
    bytes: z.number().int(),
    sha256: z.string().openapi({ description: 'SHA-256 hex over its files: the same package gives the same hash.' }),
    filesUrl: z.string().openapi({ description: "Where its files are served, on this server's base URL." }),
    filesPath: z.string().openapi({ description: 'The same as a path (`/ograf/files/{capability}/`).' }),
    createdAt: z.string(),
  })
  .openapi('Graphic');

export const GraphicsUploaded = z
  .object({
    data: z.array(GraphicOut.extend({ created: z.boolean() })).openapi({
      description: 'One per manifest found; `created: false`: the workspace held this id and version already.',
    }),
    warnings: z.array(z.string()).openapi({ description: 'What was read leniently (a legacy manifest.json).' }),
  })
  .openapi('GraphicsUploaded');

export const GraphicParams = z.object({ graphicId: pathParam('graphicId').openapi({ example: 'gr_0190…' }) });

/** The upload body as the OpenAPI document shows it: the zip as it is, or a form of `graphic` parts. */
export const GRAPHIC_UPLOAD_BODY = {
  required: true,
  content: {
    'application/zip': {
      schema: z.string().openapi({ type: 'string', format: 'binary', description: 'The graphic package, zipped.' }),
    },
    'multipart/form-data': {
      schema: z.object({
        graphic: z.string().openapi({
          type: 'string',
          format: 'binary',
          description: "A zip, or (repeated) the package's files, each named by its path in the package.",
        }),
      }),
    },
  },
};

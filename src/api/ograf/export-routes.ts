/**
 * Export as OGraf (docs/ograf.md, "Export"): a template, or a channel's scene, downloaded as an OGraf graphic package
 * (a zip). Declarations over operations/ograf-export.ts; the zip is made here, with the renderer's built module.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { exportScene, exportTemplate } from '../../operations/index.js';
import { graphicPackage, type GraphicExport } from '../../ograf/graphic-package.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { bindOperation } from '../operation-route.js';
import { openApiParts, type SpecDocs } from '../route-spec.js';
import { ChannelIdParam, pathParam } from '../schemas/common.js';

const Zip = z.string().openapi({ format: 'binary', description: 'The graphic package: a zip.' });

const PACKAGE =
  'A zip with the manifest (`<name>.ograf.json`, OGraf v1), its module `graphic.mjs` (the default export is the ' +
  "graphic's web component), the scene it draws (`scene.json`), the fonts and library files it uses, and " +
  '`thumbnail.png`. Plays in any OGraf renderer, with no onair server.';

export function ografExportRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const answer = async (out: GraphicExport) => {
    const zip = await graphicPackage(out, deps.renderer.dir);
    return new Response(zip as Uint8Array<ArrayBuffer>, {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${out.fileStem}.ograf.zip"`,
        'Cache-Control': 'no-store',
      },
    });
  };
  bindOperation(app, deps.runner, exportTemplate, {
    method: 'get',
    path: '/templates/{templateId}/ograf',
    tags: ['Scenes'],
    summary: 'Download a template as an OGraf graphic package',
    description: PACKAGE,
    ...zipDocs({ params: z.object({ templateId: pathParam('templateId') }), more: { 404: 'No such template' } }),
    answer,
  });
  bindOperation(app, deps.runner, exportScene, {
    method: 'get',
    path: '/channels/{id}/scenes/{sceneId}/ograf',
    tags: ['Scenes'],
    summary: "Download a channel's scene as an OGraf graphic package",
    description: `${PACKAGE} The defaults are the scene's, not the channel's current values.`,
    ...zipDocs({
      params: ChannelIdParam.extend({ sceneId: pathParam('sceneId') }),
      more: { 404: 'No such channel or scene', 409: 'The scene is an imported OGraf graphic' },
    }),
    answer,
  });
  return app;
}

function zipDocs(spec: Omit<SpecDocs, 'ok'>) {
  const parts = openApiParts({ ...spec, ok: [200, ''] });
  parts.responses[200] = { description: 'The graphic package', content: { 'application/zip': { schema: Zip } } };
  return parts;
}

/** The built-in templates: a declaration over operations/templates.ts. */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { listTemplates } from '../../operations/index.js';
import { SceneDefinitionIn } from '../../scenes/definition-schema.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeBinder } from '../route-spec.js';
import { InputDefOut } from '../scenes/schemas.js';

export const TemplateOut = z
  .object({
    id: z.string(),
    name: z.string(),
    layer: z.number().int().openapi({ description: 'The layer a scene made from it takes (0–99).' }),
    inputs: z.array(InputDefOut),
    triggers: z.array(z.string()).openapi({ description: 'The names of its triggers.' }),
    definition: SceneDefinitionIn,
  })
  .openapi('Template');

const TemplateList = z.object({ data: z.array(TemplateOut), nextCursor: z.null() }).openapi('TemplateList');

export function templateRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  routeBinder(app, deps.runner, ['Scenes'])(listTemplates, 'get /templates', {
    summary: 'Built-in scene templates',
    ok: [200, 'Templates', TemplateList],
  });
  return app;
}

import { OpenAPIHono, z } from '@hono/zod-openapi';
import { TEMPLATES, type Template } from '../../templates/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeDefiner } from '../route.js';
import { InputDefOut, SceneDefinitionIn } from '../scenes/schemas.js';

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

/** A template as GET /v1/templates lists it. */
export function templateView(t: Template) {
  return {
    id: t.id,
    name: t.name,
    layer: t.definition.layer,
    inputs: t.definition.inputs,
    triggers: t.definition.triggers.map((trigger) => trigger.name),
    definition: t.definition,
  };
}

export function templateRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeDefiner(deps);
  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: '/templates',
        tags: ['Scenes'],
        summary: 'Built-in scene templates',
        responses: {
          200: {
            description: 'Templates',
            content: {
              'application/json': {
                schema: z.object({ data: z.array(TemplateOut), nextCursor: z.null() }).openapi('TemplateList'),
              },
            },
          },
        },
      },
    ),
    (c) => c.json({ data: TEMPLATES.map(templateView), nextCursor: null }, 200),
  );
  return app;
}

import { OpenAPIHono, z } from '@hono/zod-openapi';
import { TEMPLATES } from '../../templates/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeDefiner } from '../route.js';

const TemplateOut = z
  .object({
    id: z.string(),
    name: z.string(),
    inputs: z.array(z.any()),
    triggers: z.array(z.string()),
    definition: z.any(),
  })
  .openapi('Template');

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
            content: { 'application/json': { schema: z.object({ data: z.array(TemplateOut), nextCursor: z.null() }) } },
          },
        },
      },
    ),
    (c) => {
      const data = TEMPLATES.map((t) => ({
        id: t.id,
        name: t.name,
        inputs: t.definition.inputs,
        triggers: t.definition.triggers,
        definition: t.definition,
      }));
      return c.json({ data, nextCursor: null }, 200);
    },
  );
  return app;
}

import { OpenAPIHono } from '@hono/zod-openapi';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeDefiner } from '../route.js';
import { ChannelIdParam, json } from '../schemas/common.js';
import { applyInputsPatch } from './apply-patch.js';
import { InputsPatch, InputsResult, StateOut } from './schemas.js';

export function inputRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeDefiner(deps);
  const { engine } = deps;

  app.openapi(
    route(
      { permission: 'inputs:write', bucket: 'updates' },
      {
        method: 'patch',
        path: '/channels/{id}/inputs',
        tags: ['Inputs'],
        summary: 'Set input values; answered once the frame that renders them is durable',
        request: { params: ChannelIdParam, body: { required: true, ...json(InputsPatch) } },
        responses: { 200: { description: 'Applied', ...json(InputsResult) } },
      },
    ),
    async (c) => {
      // The raw parsed body, not the validated copy: names like "__proto__" must reach the name check as data.
      return c.json(await applyInputsPatch(engine, c.req.valid('param').id, c.get('body')), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: '/channels/{id}/state',
        tags: ['Inputs'],
        summary: "The channel's live state",
        request: { params: ChannelIdParam },
        responses: { 200: { description: 'State', ...json(StateOut) } },
      },
    ),
    (c) => c.json(engine.state(c.req.valid('param').id), 200),
  );

  return app;
}

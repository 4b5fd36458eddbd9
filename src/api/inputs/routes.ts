import { OpenAPIHono } from '@hono/zod-openapi';
import { InputsPatch, patchInputs } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { bodyOf, runOperation } from '../operation-handler.js';
import { operationRouteDefiner, routeDefiner } from '../route.js';
import { ChannelIdParam, json } from '../schemas/common.js';
import { InputsResult, StateOut } from './schemas.js';

export function inputRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeDefiner(deps);
  const operation = operationRouteDefiner(deps);
  const { engine } = deps;

  // In production the transport answers this route itself (src/transport/fast-route.ts → ./fast-patch.ts),
  // with the same operation; this declaration documents it and serves any request that reaches the app.
  app.openapi(
    operation(patchInputs, {
      method: 'patch',
      path: '/channels/{id}/inputs',
      tags: ['Inputs'],
      summary: 'Set input values; answered once the frame that renders them is durable',
      request: { params: ChannelIdParam, body: { required: true, ...json(InputsPatch) } },
      responses: { 200: { description: 'Applied', ...json(InputsResult) } },
    }),
    async (c) => c.json(await runOperation(deps, c, patchInputs, c.req.valid('param').id, bodyOf(c)), 200),
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

import { OpenAPIHono } from '@hono/zod-openapi';
import { validatePatch } from '../../engine/index.js';
import { AppError } from '../../errors.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeDefiner } from '../route.js';
import { ChannelIdParam, json } from '../schemas/common.js';
import { InputsPatch, InputsResult, MAX_INPUTS_PER_PATCH, StateOut } from './schemas.js';

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
      const { id } = c.req.valid('param');
      // The raw parsed body, not the validated copy: names like "__proto__" must reach the name check as data.
      const raw = c.get('body') as Record<string, unknown>;
      const names = Object.keys(raw);
      if (names.length === 0) throw new AppError('invalid_request', 'Send at least one input, e.g. {"scoreA": 1}.');
      if (names.length > MAX_INPUTS_PER_PATCH) {
        throw new AppError(
          'invalid_request',
          `At most ${MAX_INPUTS_PER_PATCH} inputs per patch; this one has ${names.length}.`,
        );
      }
      const values = validatePatch(engine.registry(id), raw);
      const result = await engine.submit(id, { kind: 'patch', values, source: 'api' });
      return c.json({ channelId: id, frame: result.frame, inputs: result.applied ?? {} }, 200);
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

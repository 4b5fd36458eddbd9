import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Op } from '../../engine/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { StateOut } from '../inputs/schemas.js';
import { routeDefiner } from '../route.js';
import { ChannelIdParam, json } from '../schemas/common.js';

const SceneRef = z.strictObject({ sceneId: z.string().min(1).max(100) }).openapi('SceneRef');
const Empty = z.strictObject({}).openapi('Empty');

export function playoutRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeDefiner(deps);
  const { engine } = deps;
  const stateResponse = { 200: { description: 'The channel state after the change', ...json(StateOut) } };

  const withScene = (
    path: '/channels/{id}/preview' | '/channels/{id}/program',
    kind: 'preview' | 'program',
    summary: string,
  ) =>
    app.openapi(
      route(
        { permission: 'playout:write', bucket: 'updates' },
        {
          method: 'post',
          path,
          tags: ['Playout'],
          summary,
          request: { params: ChannelIdParam, body: { required: true, ...json(SceneRef) } },
          responses: stateResponse,
        },
      ),
      async (c) => {
        const { id } = c.req.valid('param');
        await engine.submit(id, { kind, sceneId: c.req.valid('json').sceneId, source: 'api' });
        return c.json(engine.state(id), 200);
      },
    );

  const bare = (path: '/channels/{id}/take' | '/channels/{id}/clear', op: Op, summary: string) =>
    app.openapi(
      route(
        { permission: 'playout:write', bucket: 'updates' },
        {
          method: 'post',
          path,
          tags: ['Playout'],
          summary,
          request: { params: ChannelIdParam, body: { required: false, ...json(Empty) } },
          responses: { ...stateResponse, 409: { description: 'preview_empty (take with nothing cued)' } },
        },
      ),
      async (c) => {
        const { id } = c.req.valid('param');
        await engine.submit(id, op);
        return c.json(engine.state(id), 200);
      },
    );

  withScene('/channels/{id}/preview', 'preview', 'Cue a scene into preview');
  withScene('/channels/{id}/program', 'program', 'Put a scene straight to air (cut)');
  bare('/channels/{id}/take', { kind: 'take', source: 'api' }, 'Take preview to air');
  bare('/channels/{id}/clear', { kind: 'clear', source: 'api' }, 'Take the program scene off air');
  return app;
}

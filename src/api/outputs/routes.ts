/** A channel's outputs (docs/outputs.md): declarations over operations/outputs.ts. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { listOutputs } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeBinder } from '../route-spec.js';
import { ChannelIdParam as params } from '../schemas/common.js';
import { OutputListOut } from './schemas.js';

export function outputRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeBinder(app, deps.runner, ['Outputs']);
  route(listOutputs, 'get /channels/{id}/outputs', {
    summary: "The channel's output pages connected to this server: what they painted, their health",
    params,
    ok: [200, 'The outputs, oldest connection first', OutputListOut],
  });
  return app;
}

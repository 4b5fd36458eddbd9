/** Inputs and state (docs/api.md, "Inputs and state"): declarations over operations/inputs.ts and channels.ts. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { channelState, InputsPatch, patchInputs } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { UNKNOWN_ASSET } from '../route-docs.js';
import { routeBinder } from '../route-spec.js';
import { ChannelIdParam as params } from '../schemas/common.js';
import { InputsResult, StateOut } from './schemas.js';

export function inputRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeBinder(app, deps.runner, ['Inputs']);
  // In production the transport answers this route itself (src/transport/fast-route.ts → ./fast-patch.ts), with the
  // same operation; this declaration documents it and serves any request that reaches the app.
  route(patchInputs, 'patch /channels/{id}/inputs', {
    summary: 'Set input values; answered once the frame that renders them is durable',
    params,
    body: InputsPatch,
    ok: [200, 'Applied', InputsResult],
    more: { 422: UNKNOWN_ASSET },
    // The body as sent is the patch: input names are its keys.
    input: ({ body }) => body,
  });
  route(channelState, 'get /channels/{id}/state', {
    summary: "The channel's live state",
    params,
    ok: [200, 'State', StateOut],
  });
  return app;
}

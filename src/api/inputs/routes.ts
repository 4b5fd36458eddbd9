/** Inputs and state (docs/api.md, "Inputs and state"): declarations over operations/inputs.ts and channels.ts. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { channelState, InputsPatch, patchInputs } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { operationBinder } from '../operation-route.js';
import { ChannelIdParam, json } from '../schemas/common.js';
import { InputsResult, StateOut } from './schemas.js';

export function inputRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const bind = operationBinder(app, deps.runner);

  // In production the transport answers this route itself (src/transport/fast-route.ts → ./fast-patch.ts), with the
  // same operation; this declaration documents it and serves any request that reaches the app.
  bind(patchInputs, {
    method: 'patch',
    path: '/channels/{id}/inputs',
    tags: ['Inputs'],
    summary: 'Set input values; answered once the frame that renders them is durable',
    request: { params: ChannelIdParam, body: { required: true, ...json(InputsPatch) } },
    responses: { 200: { description: 'Applied', ...json(InputsResult) } },
    // The body as sent is the patch: input names are its keys.
    input: ({ body }) => body,
  });
  bind(channelState, {
    method: 'get',
    path: '/channels/{id}/state',
    tags: ['Inputs'],
    summary: "The channel's live state",
    request: { params: ChannelIdParam },
    responses: { 200: { description: 'State', ...json(StateOut) } },
  });
  return app;
}

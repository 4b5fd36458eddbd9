/**
 * Playout, triggers and clocks (docs/api.md, "Playout", "Triggers and clocks"): each route runs the operation the
 * WebSocket op of the same name runs (operations/playout.ts, live.ts). `POST …/preview` cues a scene into preview and
 * `POST …/program` cuts one to air.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import {
  clear,
  ClearIn,
  clockAction,
  ClockActionIn,
  cue,
  cut,
  fireTrigger,
  SceneRef,
  take,
  TakeIn,
  type ChannelOperation,
  type PlayoutResult,
} from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { StateOut } from '../inputs/schemas.js';
import { operationBinder } from '../operation-route.js';
import { ChannelIdParam, json } from '../schemas/common.js';

const NamedParam = ChannelIdParam.extend({
  name: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'name', in: 'path' } }),
});
const FrameOut = z.object({ frame: z.number().int() }).openapi('FrameResult');
const ClockOut = z
  .object({ frame: z.number().int(), clock: z.object({ running: z.boolean(), ms: z.number(), at: z.number() }) })
  .openapi('ClockResult');

type BusPath = '/channels/{id}/preview' | '/channels/{id}/program' | '/channels/{id}/take' | '/channels/{id}/clear';

export function playoutRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const bind = operationBinder(app, deps.runner);
  const tags = ['Playout'];
  const stateResponse = { 200: { description: 'The channel state after the change', ...json(StateOut) } };

  const bus = <I>(
    path: BusPath,
    op: ChannelOperation<I, PlayoutResult>,
    body: z.ZodType,
    required: boolean,
    summary: string,
    conflict?: string,
  ) =>
    bind(op, {
      method: 'post',
      path,
      tags,
      summary,
      request: { params: ChannelIdParam, body: { required, ...json(body) } },
      responses: { ...stateResponse, ...(conflict ? { 409: { description: conflict } } : {}) },
      answer: (out) => out.state,
    });

  bus('/channels/{id}/preview', cue, SceneRef, true, "Cue a scene into preview, on the scene's layer");
  bus('/channels/{id}/program', cut, SceneRef, true, 'Put a scene straight to air on its layer (a cut)');
  bus('/channels/{id}/take', take, TakeIn, false, 'Take every cued layer (or one) to air', 'preview_empty');
  bus('/channels/{id}/clear', clear, ClearIn, false, 'Take a layer, a scene, or everything off air');

  bind(fireTrigger, {
    method: 'post',
    path: '/channels/{id}/triggers/{name}',
    tags,
    summary: 'Fire a trigger of the scenes on program or preview',
    request: { params: NamedParam },
    responses: { 200: { description: 'Fired', ...json(FrameOut) }, 404: { description: 'unknown_trigger' } },
    // The name is the whole input: a body is refused like on every route that takes none.
    input: ({ params }) => ({ name: params.name }),
  });
  bind(clockAction, {
    method: 'post',
    path: '/channels/{id}/clocks/{name}',
    tags,
    summary: 'Start, stop, set, reset or adjust a clock input',
    request: { params: NamedParam, body: { required: true, ...json(ClockActionIn) } },
    responses: { 200: { description: "The clock's state after the action", ...json(ClockOut) } },
  });
  return app;
}

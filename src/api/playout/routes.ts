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
  continueOnAir,
  ContinueIn,
  cue,
  cut,
  fireTrigger,
  SceneRef,
  take,
  TakeIn,
  update,
  UpdateIn,
  type ChannelOperation,
  type PlayoutResult,
} from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { StateOut } from '../inputs/schemas.js';
import { UNKNOWN_ASSET } from '../route-docs.js';
import { routeBinder } from '../route-spec.js';
import { ChannelIdParam, pathParam } from '../schemas/common.js';

const NamedParam = ChannelIdParam.extend({ name: pathParam('name') });
const FrameOut = z.object({ frame: z.number().int() }).openapi('FrameResult');
const TriggerBody = z
  .object({
    payload: z.unknown().optional().openapi({
      description: "What a graphic's custom action runs with (docs/ograf.md); renderers get it with the fired trigger.",
    }),
    layer: z.number().int().min(0).max(99).optional().openapi({
      description: 'Only the scene on this layer (of program or preview); default: every scene on air or cued.',
    }),
  })
  .openapi('TriggerBody');
const ClockOut = z
  .object({
    frame: z.number().int(),
    clock: z.object({ running: z.boolean(), ms: z.number(), at: z.number(), period: z.number().int().optional() }),
  })
  .openapi('ClockResult');

type BusPath = '/channels/{id}/preview' | '/channels/{id}/program' | '/channels/{id}/update';

export function playoutRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeBinder(app, deps.runner, ['Playout']);
  const ok = [200, 'The channel state after the change', StateOut] as const;
  const bus = <I>(path: BusPath, op: ChannelOperation<I, PlayoutResult>, summary: string, body: z.ZodType) =>
    route(op, `post ${path}`, {
      summary,
      params: ChannelIdParam,
      body,
      ok: [...ok],
      more: { 422: UNKNOWN_ASSET },
      answer: (out) => out.state,
    });
  const optional = { optionalBody: true };

  bus('/channels/{id}/preview', cue, 'Cue a scene (with its values) or an item into preview, on its layer', SceneRef);
  bus('/channels/{id}/program', cut, 'Put a scene (with its values) or an item straight to air (a cut)', SceneRef);
  bus('/channels/{id}/update', update, 'Update on air: new item values for the instance on program', UpdateIn);
  route(continueOnAir, 'post /channels/{id}/continue', {
    summary: 'The next step of the scene on air (its `next` trigger)',
    params: ChannelIdParam,
    body: ContinueIn,
    ...optional,
    ok: [200, 'Continued', FrameOut],
    more: { 404: 'unknown_trigger: no scene on air has a next step' },
  });
  route(take, 'post /channels/{id}/take', {
    summary: 'Take every cued layer (or one) to air',
    params: ChannelIdParam,
    body: TakeIn,
    ...optional,
    ok: [...ok],
    more: { 409: 'preview_empty' },
    answer: (out) => out.state,
  });
  route(clear, 'post /channels/{id}/clear', {
    summary: 'Take a layer, a scene, or everything off air',
    params: ChannelIdParam,
    body: ClearIn,
    ...optional,
    ok: [...ok],
    answer: (out) => out.state,
  });
  route(fireTrigger, 'post /channels/{id}/triggers/{name}', {
    summary: 'Fire a trigger of the scenes on program or preview',
    params: NamedParam,
    ok: [200, 'Fired', FrameOut],
    body: TriggerBody,
    optionalBody: true,
    more: { 404: 'unknown_trigger' },
    input: ({ params, body }) => ({ ...(body as object), name: params.name }),
  });
  route(clockAction, 'post /channels/{id}/clocks/{name}', {
    summary: 'Start, stop, set, reset or adjust a clock input',
    params: NamedParam,
    body: ClockActionIn,
    ok: [200, "The clock's state after the action", ClockOut],
  });
  return app;
}

/**
 * Playout (docs/api.md, "Playout"): cue a scene instance into preview, cut one straight to air, take preview to air,
 * clear the air, update what is on air, continue a multi-step graphic. Each bus holds one scene per layer; a scene's
 * layer is in its definition. An instance is a scene with its own values (its item inputs), or a rundown item.
 */
import { z } from 'zod';
import type { ChannelState, Op } from '../engine/index.js';
import { assertAssetsHeld, assetValues } from './asset-refs.js';
import { originOf, type ChannelOperation } from './operation.js';

const SceneId = z.string().min(1).max(100);
const Layer = z.number().int().min(0).max(99);

const ItemId = z.string().min(1).max(100);
/** Item values: each an item input of the scene (names checked against it when applied). */
export const ItemValuesIn = z
  .record(z.string().min(1).max(64), z.union([z.number(), z.string().max(10_000), z.boolean(), z.null()]))
  .refine((v) => Object.keys(v).length <= 200, { message: 'at most 200 values' })
  .meta({ id: 'ItemValues', description: "The instance's own values: item inputs of its scene; null removes one." });

export const SceneRef = z
  .union([
    z.strictObject({
      sceneId: SceneId,
      values: ItemValuesIn.optional().meta({ description: "This instance's item values (its scene's item inputs)." }),
    }),
    z.strictObject({ itemId: ItemId.meta({ description: 'A rundown item: its scene, with its values.' }) }),
  ])
  .meta({ id: 'SceneRef', description: '`{ sceneId, values? }` or `{ itemId }`.' });
export const UpdateIn = z
  .strictObject({
    layer: Layer.optional().meta({ description: 'The instance on air on this layer.' }),
    sceneId: SceneId.optional().meta({ description: 'The instance of this scene on air.' }),
    values: ItemValuesIn,
  })
  .meta({ id: 'UpdateIn', description: 'Name the layer or the scene when several are on air.' });
export const ContinueIn = z
  .strictObject({
    layer: Layer.optional().meta({ description: 'Only the scene on this layer.' }),
    step: z.number().int().min(0).max(100_000).optional().meta({
      description:
        'Go to this step (0-based, held to the step count) of the graphics on air instead of the next one; no `next` trigger fires.',
    }),
  })
  .meta({ id: 'ContinueIn' });
export const TakeIn = z
  .strictObject({ layer: Layer.optional().meta({ description: 'Only this layer; default: every cued layer.' }) })
  .meta({ id: 'TakeIn' });
export const ClearIn = z
  .strictObject({
    layer: Layer.optional().meta({ description: 'Only this layer.' }),
    sceneId: SceneId.optional().meta({ description: 'Only this scene.' }),
  })
  .refine((b) => b.layer === undefined || b.sceneId === undefined, {
    message: 'give "layer" or "sceneId", not both',
    path: ['sceneId'],
  })
  .meta({ id: 'ClearIn' });

/** The frame the change is first drawn in, and the channel's state once it is durable. */
export interface PlayoutResult {
  frame: number;
  state: ChannelState;
}

type BusOp = Extract<Op, { kind: 'cue' | 'cut' | 'take' | 'clear' | 'update' }>;
type WithoutOrigin<T> = T extends unknown ? Omit<T, 'by'> : never;

function playoutOp<I>(
  name: string,
  input: z.ZodType<I>,
  op: (input: I) => WithoutOrigin<BusOp>,
): ChannelOperation<I, PlayoutResult> {
  return {
    name,
    scope: 'channel',
    permission: 'playout:write',
    bucket: 'updates',
    input,
    async run({ services, channel, caller }, parsed) {
      const { engine } = services;
      const busOp = op(parsed);
      const values = 'values' in busOp ? busOp.values : undefined;
      await assertAssetsHeld(services, channel.orgId, assetValues(engine.registry(channel.id), values, 'values'));
      const { frame } = await engine.submit(channel.id, { ...busOp, by: originOf(caller) });
      return { frame, state: engine.state(channel.id) };
    },
  };
}

export const cue = playoutOp('cue', SceneRef, (b) => ({ kind: 'cue', ...b }));
export const cut = playoutOp('cut', SceneRef, (b) => ({ kind: 'cut', ...b }));
/** Update on air: new item values for the instance on program, at the next frame (its own event). */
export const update = playoutOp('update', UpdateIn, (b) => ({ kind: 'update', ...b }));

/** The next step of the scene(s) on air: their `next` trigger. */
export const continueOnAir: ChannelOperation<z.infer<typeof ContinueIn>, { frame: number }> = {
  name: 'continue',
  scope: 'channel',
  permission: 'playout:write',
  bucket: 'updates',
  input: ContinueIn,
  async run({ services: { engine }, channel, caller }, { layer, step }) {
    const { frame } = await engine.submit(channel.id, { kind: 'continue', layer, step, by: originOf(caller) });
    return { frame };
  },
};
export const take = playoutOp('take', TakeIn, (b) => ({
  kind: 'take',
  ...(b.layer === undefined ? {} : { layer: b.layer }),
}));
export const clear = playoutOp('clear', ClearIn, (b) => ({
  kind: 'clear',
  ...(b.layer === undefined ? {} : { layer: b.layer }),
  ...(b.sceneId === undefined ? {} : { sceneId: b.sceneId }),
}));

/**
 * Playout (docs/api.md, "Playout"): cue a scene into preview, cut it straight to air, take preview to air,
 * clear the air. Each bus holds one scene per layer; a scene's layer is in its definition.
 */
import { z } from 'zod';
import type { ChannelState, Op } from '../engine/index.js';
import type { ChannelOperation } from './operation.js';

const SceneId = z.string().min(1).max(100);
const Layer = z.number().int().min(0).max(99);

export const SceneRef = z.strictObject({ sceneId: SceneId }).meta({ id: 'SceneRef' });
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

type BusOp = Exclude<Op, { kind: 'patch' | 'trigger' | 'clock' }>;
type WithoutSource<T> = T extends unknown ? Omit<T, 'source'> : never;

function playoutOp<I>(
  name: string,
  input: z.ZodType<I>,
  op: (input: I) => WithoutSource<BusOp>,
): ChannelOperation<I, PlayoutResult> {
  return {
    name,
    scope: 'channel',
    permission: 'playout:write',
    bucket: 'updates',
    input,
    async run({ services: { engine }, channel, caller }, parsed) {
      const { frame } = await engine.submit(channel.id, { ...op(parsed), source: caller.source });
      return { frame, state: engine.state(channel.id) };
    },
  };
}

export const cue = playoutOp('cue', SceneRef, (b) => ({ kind: 'cue', sceneId: b.sceneId }));
export const cut = playoutOp('cut', SceneRef, (b) => ({ kind: 'cut', sceneId: b.sceneId }));
export const take = playoutOp('take', TakeIn, (b) => ({
  kind: 'take',
  ...(b.layer === undefined ? {} : { layer: b.layer }),
}));
export const clear = playoutOp('clear', ClearIn, (b) => ({
  kind: 'clear',
  ...(b.layer === undefined ? {} : { layer: b.layer }),
  ...(b.sceneId === undefined ? {} : { sceneId: b.sceneId }),
}));

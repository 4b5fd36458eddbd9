/**
 * Playout (docs/api.md, "Playout"): cue a scene into preview, cut it straight to air, take preview to air,
 * clear the air. Each bus holds one scene per layer; a scene's layer is in its definition.
 */
import { z } from '@hono/zod-openapi';
import type { ChannelState, Engine, Op } from '../engine/index.js';
import type { ChannelOperation } from './operation.js';

const SceneId = z.string().min(1).max(100);
const Layer = z.number().int().min(0).max(99);

export const SceneRef = z.strictObject({ sceneId: SceneId }).openapi('SceneRef');
export const TakeIn = z
  .strictObject({ layer: Layer.optional().openapi({ description: 'Only this layer; default: every cued layer.' }) })
  .openapi('TakeIn');
export const ClearIn = z
  .strictObject({
    layer: Layer.optional().openapi({ description: 'Only this layer.' }),
    sceneId: SceneId.optional().openapi({ description: 'Only this scene.' }),
  })
  .refine((b) => b.layer === undefined || b.sceneId === undefined, {
    message: 'give "layer" or "sceneId", not both',
    path: ['sceneId'],
  })
  .openapi('ClearIn');

/** The frame the change is first drawn in, and the channel's state once it is durable. */
export interface PlayoutResult {
  frame: number;
  state: ChannelState;
}

function playoutOp<I>(name: string, input: z.ZodType<I>, op: (input: I) => Omit<Op, 'source'>) {
  const operation: ChannelOperation<I, PlayoutResult> = {
    name,
    permission: 'playout:write',
    input,
    async run({ engine }: { engine: Engine }, channelId, parsed, source) {
      const { frame } = await engine.submit(channelId, { ...op(parsed), source } as Op);
      return { frame, state: engine.state(channelId) };
    },
  };
  return operation;
}

export const cue = playoutOp('preview', SceneRef, (b) => ({ kind: 'preview', sceneId: b.sceneId }));
export const cut = playoutOp('program', SceneRef, (b) => ({ kind: 'program', sceneId: b.sceneId }));
export const take = playoutOp('take', TakeIn, (b) => ({
  kind: 'take',
  ...(b.layer === undefined ? {} : { layer: b.layer }),
}));
export const clear = playoutOp('clear', ClearIn, (b) => ({
  kind: 'clear',
  ...(b.layer === undefined ? {} : { layer: b.layer }),
  ...(b.sceneId === undefined ? {} : { sceneId: b.sceneId }),
}));

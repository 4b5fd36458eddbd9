/**
 * What a node sends a channel's owner to have ops applied, and what it gets back (forwarding-engine.ts): JSON, so a
 * patch's Map travels as an object. Both are checked on arrival; a message that is not one is refused.
 */
import { z } from 'zod';
import type { Op } from '../engine/index.js';
import { ACTOR_TYPES } from '@onair/protocol';
import { OP_KINDS } from '../engine/index.js';
import { WireError } from './cluster-bus.js';
import { InputValueSchema } from '../scenes/input-value-schema.js';

const Source = z.enum(['api', 'dashboard', 'incoming_webhook', 'data_source', 'schedule', 'output']);
const Clock = z.object({ running: z.boolean(), ms: z.number(), at: z.number(), period: z.number().optional() });
const Origin = z.object({
  source: Source,
  actor: z.object({ type: z.enum(ACTOR_TYPES), id: z.string(), name: z.string() }),
});

/**
 * An op as it travels to the owner: a patch's values as an object (a Map does not survive JSON). Its kind and origin
 * are checked here; its fields are checked by the owner's engine when it applies it, as for an op of its own.
 */
const WireOp = z
  .object({ kind: z.enum(OP_KINDS), by: Origin, values: z.unknown().optional() })
  .loose()
  .refine((op) => op.kind !== 'patch' || (typeof op.values === 'object' && op.values !== null), {
    message: 'a patch carries its values as an object',
  });
export type WireOp = z.infer<typeof WireOp>;

/** Ops submitted in one turn of the event loop for one channel: the owner queues them for one tick. */
export const ForwardRequest = z.object({ kind: z.literal('submit'), channelId: z.string(), ops: z.array(WireOp) });
export type ForwardRequest = z.infer<typeof ForwardRequest>;

const Result = z.object({
  frame: z.number(),
  applied: z.record(z.string(), InputValueSchema).optional(),
  clock: Clock.optional(),
  // Records the owner's engine made (a rundown, an item, a scheduled entry): passed on as they are.
  rundown: z.any().optional(),
  item: z.any().optional(),
  scheduled: z.any().optional(),
});

/** One answer per op, in order; and the owner's frame once they were applied, with its rate. */
export const ForwardReply = z.object({
  results: z.array(
    z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), result: Result }),
      z.object({ ok: z.literal(false), error: WireError }),
    ]),
  ),
  /** What the sender's copy must reach before it answers (frame numbers count frames of `fps`). */
  frame: z.number(),
  fps: z.number(),
});
export type ForwardReply = z.infer<typeof ForwardReply>;

export function toWire(op: Op): WireOp {
  return op.kind === 'patch' ? { ...op, values: Object.fromEntries(op.values) } : op;
}

export function fromWire(op: WireOp): Op {
  const values = op.values as Record<string, unknown>;
  return (op.kind === 'patch' ? { ...op, values: new Map(Object.entries(values)) } : op) as Op;
}

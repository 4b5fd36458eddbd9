/**
 * What a node sends a channel's owner to have ops applied, and what it gets back (forwarding-engine.ts): JSON, so a
 * patch's Map travels as an object. Both are checked on arrival; a message that is not one is refused.
 */
import { z } from 'zod';
import type { Op } from '../engine/index.js';
import { CLOCK_ACTIONS } from '@onair/protocol';
import { WireError } from './cluster-bus.js';

const Source = z.enum(['api', 'dashboard', 'incoming_webhook']);
const Value = z.union([z.number(), z.string(), z.boolean(), z.null()]);
const Clock = z.object({ running: z.boolean(), ms: z.number(), at: z.number() });

/** An op as it travels to the owner: a patch's values as an object (a Map does not survive JSON). */
const WireOp = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('patch'), values: z.record(z.string(), Value), source: Source }),
  z.object({ kind: z.literal('cue'), sceneId: z.string(), source: Source }),
  z.object({ kind: z.literal('cut'), sceneId: z.string(), source: Source }),
  z.object({ kind: z.literal('take'), layer: z.number().optional(), source: Source }),
  z.object({
    kind: z.literal('clear'),
    layer: z.number().optional(),
    sceneId: z.string().optional(),
    source: Source,
  }),
  z.object({ kind: z.literal('trigger'), name: z.string(), source: Source }),
  z.object({
    kind: z.literal('clock'),
    name: z.string(),
    action: z.enum(CLOCK_ACTIONS),
    ms: z.number().optional(),
    source: Source,
  }),
]);
export type WireOp = z.infer<typeof WireOp>;

/** Ops submitted in one turn of the event loop for one channel: the owner queues them for one tick. */
export const ForwardRequest = z.object({ kind: z.literal('submit'), channelId: z.string(), ops: z.array(WireOp) });
export type ForwardRequest = z.infer<typeof ForwardRequest>;

const Result = z.object({
  frame: z.number(),
  applied: z.record(z.string(), Value).optional(),
  clock: Clock.optional(),
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
  return op.kind === 'patch' ? { ...op, values: new Map(Object.entries(op.values)) } : op;
}

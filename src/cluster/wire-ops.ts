/** Ops as they travel from a node to a channel's owner (cluster-engine.ts): JSON, so a patch's Map becomes an object. */
import type { Op } from '../engine/index.js';
import type { InputValue } from '@onair/protocol';

/** An op as it travels to the owner: a patch's values as an object (a Map does not survive JSON). */
export type WireOp =
  Exclude<Op, { kind: 'patch' }> | { kind: 'patch'; values: Record<string, InputValue>; source: string };

export function toWire(op: Op): WireOp {
  return op.kind === 'patch' ? { ...op, values: Object.fromEntries(op.values) } : op;
}

export function fromWire(op: WireOp): Op {
  return op.kind === 'patch' ? ({ ...op, values: new Map(Object.entries(op.values)) } as Op) : op;
}

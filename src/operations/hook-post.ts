/**
 * What an incoming webhook post does to its channel (docs/incoming-hooks.md): the mapped input values and clock
 * actions, in one tick, all or nothing. The mapping itself (webhooks/incoming/hook-mapping.ts) runs first; this
 * is the channel operation, so a post is authorised, rate-limited and submitted like a PATCH.
 */
import { z } from 'zod';
import { validatePatch } from '../engine/index.js';
import type { InputValue } from '@onair/protocol';
import type { ChannelOperation } from './operation.js';

export type ClockChange = { name: string; action: 'start' | 'stop' } | { name: string; action: 'set'; ms: number };

/** A post, mapped onto the channel's inputs (webhooks/incoming/hook-mapping.ts). */
export interface MappedChange {
  /** Input values to set. */
  patch: Record<string, InputValue>;
  clocks: ClockChange[];
  /** Input name → value applied (clocks: `true`/`false` for running, a number for a time). */
  applied: Record<string, unknown>;
  /** Field paths present in the payload that nothing maps. */
  ignored: string[];
}

export interface HookPostResult {
  /** The frame that applied the change; null when the post carried nothing to apply. */
  frame: number | null;
  applied: Record<string, unknown>;
}

export const applyHookPost: ChannelOperation<MappedChange, HookPostResult> = {
  name: 'incoming-hook',
  permission: 'inputs:write',
  input: z.custom<MappedChange>((v) => typeof v === 'object' && v !== null),
  async run({ engine }, channelId, change, source) {
    const registry = engine.registry(channelId);
    const names = Object.keys(change.patch);
    const values = validatePatch(registry, change.patch);
    for (const c of change.clocks)
      if (registry.get(c.name)?.type !== 'clock') throw new Error(`not a clock: ${c.name}`);
    if (names.length === 0 && change.clocks.length === 0) return { frame: null, applied: {} };
    // Queued in one turn of the event loop, so one tick applies them all.
    const pending = [
      ...(names.length > 0 ? [engine.submit(channelId, { kind: 'patch', values, source })] : []),
      ...change.clocks.map((c) => engine.submit(channelId, clockOp(c, source))),
    ];
    const results = await Promise.all(pending);
    return { frame: Math.max(...results.map((r) => r.frame)), applied: change.applied };
  },
};

function clockOp(c: ClockChange, source: Parameters<typeof applyHookPost.run>[3]) {
  return c.action === 'set'
    ? { kind: 'clock' as const, name: c.name, action: 'set' as const, ms: c.ms, source }
    : { kind: 'clock' as const, name: c.name, action: c.action, source };
}

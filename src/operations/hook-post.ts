/**
 * What an incoming webhook post does to its channel (docs/incoming-hooks.md): the mapped input values and clock
 * actions, in one tick, all or nothing. The mapping itself (incoming-hooks/hook-mapping.ts) runs first; this
 * is the channel operation, so a post is authorised, rate-limited and submitted like a PATCH.
 */
import { z } from 'zod';
import { validatePatch, type Origin } from '../engine/index.js';
import { AppError } from '../errors.js';
import type { ClockChange, MappedChange } from '../incoming-hooks/hook-mapping.js';
import { assertAssetsHeld, assetValues } from './asset-refs.js';
import { originOf, type ChannelOperation } from './operation.js';

export interface HookPostResult {
  /** The frame that applied the change; null when the post carried nothing to apply. */
  frame: number | null;
  applied: Record<string, unknown>;
}

export const applyHookPost: ChannelOperation<MappedChange, HookPostResult> = {
  name: 'incoming-hook',
  scope: 'channel',
  permission: 'inputs:write',
  bucket: 'updates',
  input: z.custom<MappedChange>((v) => typeof v === 'object' && v !== null),
  async run({ services, channel, caller }, change) {
    const { engine } = services;
    const channelId = channel.id;
    const by = originOf(caller);
    const registry = engine.registry(channelId);
    const names = Object.keys(change.patch);
    const values = validatePatch(registry, change.patch);
    await assertAssetsHeld(services, channel.orgId, assetValues(registry, values));
    for (const c of change.clocks) {
      if (registry.get(c.name)?.type !== 'clock') {
        throw new AppError('invalid_request', `Input "${c.name}" is not a clock.`, {
          errors: [{ path: c.name, message: 'not a clock' }],
        });
      }
    }
    if (names.length === 0 && change.clocks.length === 0) return { frame: null, applied: {} };
    // Queued in one turn of the event loop, so one tick applies them all.
    const pending = [
      ...(names.length > 0 ? [engine.submit(channelId, { kind: 'patch', values, by })] : []),
      ...change.clocks.map((c) => engine.submit(channelId, clockOp(c, by))),
    ];
    const results = await Promise.all(pending);
    return { frame: Math.max(...results.map((r) => r.frame)), applied: change.applied };
  },
};

function clockOp(c: ClockChange, by: Origin) {
  return c.action === 'set'
    ? { kind: 'clock' as const, name: c.name, action: 'set' as const, ms: c.ms, by }
    : { kind: 'clock' as const, name: c.name, action: c.action, by };
}

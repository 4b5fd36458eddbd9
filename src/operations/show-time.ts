/**
 * Operations at a time, and undo (docs/rundowns.md, "Take at a time", "Undo"): schedule an op for a wall-clock time
 * (the server applies it in the frame that holds it), list and cancel what is scheduled; undo and redo the channel's
 * last on-air action; read the history they walk.
 */
import { z } from 'zod';
import type { ScheduledAction } from '@onair/protocol';
import type { ChannelState } from '../engine/index.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { Paging } from './paging.js';
import { ItemValuesIn } from './playout.js';
import { assertAssetsHeld, assetValues } from './asset-refs.js';
import { originOf, type ChannelOperation } from './operation.js';

const Id = z.string().min(1).max(100);
const Layer = z.number().int().min(0).max(99);

const ScheduledActionIn = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('take'), layer: Layer.optional() }),
  z.strictObject({ kind: z.literal('clear'), layer: Layer.optional(), sceneId: Id.optional() }),
  z.strictObject({
    kind: z.enum(['cue', 'program']),
    sceneId: Id.optional(),
    values: ItemValuesIn.optional(),
    rundownId: Id.optional(),
    itemId: Id.optional(),
  }),
]);

export const ScheduleIn = z
  .strictObject({
    at: z.iso.datetime({ offset: true }).meta({ description: 'When, ISO 8601 with a zone (Z or an offset).' }),
    op: ScheduledActionIn.meta({
      description:
        '`{ kind: "take", layer? }`, `{ kind: "clear", layer?, sceneId? }`, or `{ kind: "cue" | "program" }` with ' +
        '`sceneId` (and `values`) or `rundownId` and `itemId`.',
    }),
  })
  .meta({ id: 'ScheduleIn' });

function action(op: z.infer<typeof ScheduledActionIn>): ScheduledAction {
  if (op.kind === 'take' || op.kind === 'clear') return op;
  const { kind, sceneId, values, rundownId, itemId } = op;
  if (itemId !== undefined && rundownId !== undefined && sceneId === undefined && values === undefined) {
    return { kind, rundownId, itemId };
  }
  if (sceneId !== undefined && itemId === undefined && rundownId === undefined) {
    return values === undefined ? { kind, sceneId } : { kind, sceneId, values };
  }
  throw new AppError(
    'invalid_request',
    'A scheduled cue or program names a sceneId (with values), or a rundownId and an itemId.',
    {
      errors: [{ path: 'op', message: 'sceneId, or rundownId and itemId' }],
    },
  );
}

export const scheduleOp: ChannelOperation<z.infer<typeof ScheduleIn>, unknown> = {
  name: 'schedule.add',
  scope: 'channel',
  permission: 'playout:write',
  bucket: 'updates',
  input: ScheduleIn,
  async run({ services, channel, caller }, { at, op }) {
    const { engine } = services;
    const values = 'values' in op ? op.values : undefined;
    await assertAssetsHeld(services, channel.orgId, assetValues(engine.registry(channel.id), values, 'op.values'));
    const result = await engine.submit(channel.id, {
      kind: 'schedule.add',
      scheduleId: newId('sch'),
      at,
      action: action(op),
      by: originOf(caller),
    });
    return result.scheduled;
  },
};

export const listSchedule: ChannelOperation<Record<string, never>, unknown> = {
  name: 'schedule.list',
  scope: 'channel',
  permission: 'channels:read',
  bucket: 'reads',
  input: z.strictObject({}),
  async run({ services: { engine }, channel }) {
    return { data: engine.show(channel.id).schedule };
  },
};

export const cancelScheduled: ChannelOperation<{ scheduleId: string }, null> = {
  name: 'schedule.cancel',
  scope: 'channel',
  permission: 'playout:write',
  bucket: 'updates',
  input: z.strictObject({ scheduleId: Id }),
  async run({ services: { engine }, channel, caller }, { scheduleId }) {
    await engine.submit(channel.id, { kind: 'schedule.cancel', scheduleId, by: originOf(caller) });
    return null;
  },
};

function revisitOp(
  kind: 'undo' | 'redo',
): ChannelOperation<Record<string, never>, { frame: number; state: ChannelState }> {
  return {
    name: kind,
    scope: 'channel',
    permission: 'playout:write',
    bucket: 'updates',
    input: z.strictObject({}),
    async run({ services: { engine }, channel, caller }) {
      const { frame } = await engine.submit(channel.id, { kind, by: originOf(caller) });
      return { frame, state: engine.state(channel.id) };
    },
  };
}

export const undo = revisitOp('undo');
export const redo = revisitOp('redo');

/** The on-air history undo walks, newest first (read from the store: any node answers it alike). */
export const listHistory: ChannelOperation<z.infer<typeof Paging>, unknown> = {
  name: 'history.list',
  scope: 'channel',
  permission: 'channels:read',
  bucket: 'reads',
  input: Paging,
  async run({ services: { store }, channel }, { cursor, limit }) {
    return store.listHistory(channel.id, { cursor, limit });
  },
};

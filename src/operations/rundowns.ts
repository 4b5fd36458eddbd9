/**
 * Rundowns (docs/rundowns.md): prepared items, each a scene with its own values, and the operations an operator runs
 * the show with (focus, cue, play next, stop). Everything is an engine op, applied at the next tick and shared by
 * every operator and node; edits name the version they read (409 version_conflict with the current record).
 */
import { z } from 'zod';
import type { Rundown, RundownItem } from '@onair/protocol';
import type { ChannelState, Op, OpResult } from '../engine/index.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { ItemValuesIn } from './playout.js';
import { assertAssetsHeld, assetValues } from './asset-refs.js';
import { originOf, type ChannelContext, type ChannelOperation } from './operation.js';

const Id = z.string().min(1).max(100);
const Name = z.string().trim().min(1).max(100);
const Version = z.number().int().min(1).meta({ description: 'The version you read: a stale one answers 409.' });
const Position = z.number().int().min(0).max(10_000).meta({ description: 'Where in the list (0: first).' });
const ItemFieldsIn = {
  values: ItemValuesIn.optional(),
  label: z.string().max(200).optional(),
  notes: z.string().max(2000).optional(),
  durationMs: z
    .number()
    .int()
    .min(100)
    .max(86_400_000)
    .nullable()
    .optional()
    .meta({ description: 'On air, the item leaves by itself after this long (auto-out); null: it stays.' }),
  position: Position.optional(),
};

export const RundownIn = z.strictObject({ name: Name }).meta({ id: 'RundownIn' });
export const RundownUpdate = z.strictObject({ name: Name, version: Version }).meta({ id: 'RundownUpdate' });
export const ItemIn = z.strictObject({ sceneId: Id, ...ItemFieldsIn }).meta({ id: 'ItemIn' });
export const ItemUpdate = z
  .strictObject({ sceneId: Id.optional(), ...ItemFieldsIn, version: Version })
  .meta({ id: 'ItemUpdate' });
export const FocusIn = z
  .union([z.strictObject({ itemId: Id }), z.strictObject({ move: z.enum(['next', 'previous', 'first', 'last']) })])
  .meta({ id: 'FocusIn', description: '`{ itemId }` or `{ move: "next" | "previous" | "first" | "last" }`.' });
export const ItemRefIn = z
  .strictObject({ itemId: Id.optional().meta({ description: 'Default: the focused item.' }) })
  .meta({ id: 'ItemRefIn' });

const RundownRef = z.strictObject({ rundownId: Id });
const ItemRef = z.strictObject({ rundownId: Id, itemId: Id });

type Write = 'playout:write';
const WRITE: Write = 'playout:write';

/** Submits a rundown op and answers with the rundown it acted on. */
async function submitted(ctx: ChannelContext, op: DistributiveOmit<Op, 'by'>): Promise<OpResult> {
  return ctx.services.engine.submit(ctx.channel.id, { ...op, by: originOf(ctx.caller) });
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function rundownOf(result: OpResult): Rundown {
  if (!result.rundown) throw new AppError('internal');
  return result.rundown;
}

function itemOf(result: OpResult): RundownItem {
  if (!result.item) throw new AppError('internal');
  return result.item;
}

function op<I, O>(
  name: string,
  input: z.ZodType<I>,
  run: (ctx: ChannelContext, input: I) => Promise<O>,
  permission: 'playout:write' | 'channels:read' = WRITE,
): ChannelOperation<I, O> {
  return { name, scope: 'channel', permission, bucket: permission === WRITE ? 'updates' : 'reads', input, run };
}

export const listRundowns = op(
  'rundown.list',
  z.strictObject({}),
  async ({ services, channel }) => ({ data: services.engine.show(channel.id).rundowns }),
  'channels:read',
);

export const getRundown = op(
  'rundown.get',
  RundownRef,
  async ({ services, channel }, { rundownId }) => {
    const found = services.engine.show(channel.id).rundowns.find((r) => r.id === rundownId);
    if (!found) throw new AppError('not_found', `Rundown ${rundownId} is not in this channel.`);
    return found;
  },
  'channels:read',
);

export const createRundown = op('rundown.create', RundownIn, async (ctx, { name }) =>
  rundownOf(await submitted(ctx, { kind: 'rundown.create', rundownId: newId('rd'), name })),
);

export const renameRundown = op('rundown.rename', RundownRef.extend(RundownUpdate.shape), async (ctx, b) =>
  rundownOf(await submitted(ctx, { kind: 'rundown.rename', rundownId: b.rundownId, name: b.name, version: b.version })),
);

export const deleteRundown = op('rundown.delete', RundownRef, async (ctx, { rundownId }) => {
  await submitted(ctx, { kind: 'rundown.delete', rundownId });
  return null;
});

/** An item's values name only files of the workspace's library. */
function assertItemAssets(ctx: ChannelContext, values: Record<string, unknown> | undefined): Promise<void> {
  const registry = ctx.services.engine.registry(ctx.channel.id);
  return assertAssetsHeld(ctx.services, ctx.channel.orgId, assetValues(registry, values, 'values'));
}

export const addItem = op('rundown.item_add', RundownRef.extend(ItemIn.shape), async (ctx, b) => {
  const { rundownId, position, ...fields } = b;
  await assertItemAssets(ctx, fields.values);
  const result = await submitted(ctx, { kind: 'item.add', rundownId, itemId: newId('it'), fields, position });
  return itemOf(result);
});

export const editItem = op('rundown.item_edit', ItemRef.extend(ItemUpdate.shape), async (ctx, b) => {
  const { rundownId, itemId, version, position, ...fields } = b;
  await assertItemAssets(ctx, fields.values);
  return itemOf(await submitted(ctx, { kind: 'item.edit', rundownId, itemId, version, fields, position }));
});

export const duplicateItem = op('rundown.item_duplicate', ItemRef, async (ctx, { rundownId, itemId }) =>
  itemOf(await submitted(ctx, { kind: 'item.duplicate', rundownId, itemId, newItemId: newId('it') })),
);

export const deleteItem = op('rundown.item_delete', ItemRef, async (ctx, { rundownId, itemId }) => {
  await submitted(ctx, { kind: 'item.delete', rundownId, itemId });
  return null;
});

const FocusCall = z.union([
  z.strictObject({ rundownId: Id, itemId: Id }),
  z.strictObject({ rundownId: Id, move: z.enum(['next', 'previous', 'first', 'last']) }),
]);

export const focusRundown = op('rundown.focus', FocusCall, async (ctx, b) =>
  rundownOf(await submitted(ctx, { kind: 'rundown.focus', ...b })),
);

/** The playout ops of a rundown answer with the channel's state, like the bus ops. */
async function played(
  ctx: ChannelContext,
  o: DistributiveOmit<Op, 'by'>,
): Promise<{ frame: number; state: ChannelState }> {
  const { frame } = await submitted(ctx, o);
  return { frame, state: ctx.services.engine.state(ctx.channel.id) };
}

export const cueRundownItem = op('rundown.cue', RundownRef.extend(ItemRefIn.shape), (ctx, b) =>
  played(ctx, { kind: 'rundown.cue', rundownId: b.rundownId, itemId: b.itemId }),
);

export const playNext = op('rundown.play_next', RundownRef, (ctx, b) =>
  played(ctx, { kind: 'rundown.play_next', rundownId: b.rundownId }),
);

export const stopRundownItem = op('rundown.stop', RundownRef.extend(ItemRefIn.shape), (ctx, b) =>
  played(ctx, { kind: 'rundown.stop', rundownId: b.rundownId, itemId: b.itemId }),
);

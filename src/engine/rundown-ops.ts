/**
 * What the rundown ops do in a tick (docs/rundowns.md): rundowns of prepared items, each a scene with its own values;
 * the shared focus; cue, play next and stop. Rundowns live in the channel's state, so every operator and every node
 * sees the same list, focus and item states, and an edit names the version it read: a stale one gets
 * `409 version_conflict` with the current record, never a silent overwrite.
 */
import type { ItemState, Rundown, RundownItem } from '@onair/protocol';
import { AppError } from '../errors.js';
import { cueInstance, offAir, takePreview } from './bus-ops.js';
import type { Draft } from './draft.js';
import { itemValues, mergedValues } from './item-values.js';
import type { FocusMove, ItemFields, Op } from './ops.js';

type OpOf<K extends Op['kind']> = Extract<Op, { kind: K }>;

/** The settings that raise the limits, named in the refusal like every limit's (docs/api.md, "Limits"). */
const RUNDOWNS = 'ONAIR_LIMIT_RUNDOWNS_PER_CHANNEL';
const ITEMS = 'ONAIR_LIMIT_ITEMS_PER_RUNDOWN';

/** What an op answers with: the rundown (and item) it acted on, read once the tick is finished. */
export interface RundownAck {
  rundownId?: string;
  itemId?: string;
}

export function createRundown(d: Draft, op: OpOf<'rundown.create'>): RundownAck {
  const limit = d.tick.limits.rundownsPerChannel;
  if (d.live.rundowns.size >= limit) {
    throw new AppError('limit_reached', `A channel holds at most ${limit} rundowns (${RUNDOWNS}).`, {
      extra: { limit, setting: RUNDOWNS },
    });
  }
  const now = d.tick.nowIso;
  d.setRundown({
    id: op.rundownId,
    channelId: d.rt.record.id,
    name: op.name,
    items: [],
    focus: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  });
  return { rundownId: op.rundownId };
}

export function renameRundown(d: Draft, op: OpOf<'rundown.rename'>): RundownAck {
  const rundown = requireRundown(d, op.rundownId);
  checkVersion(rundown.version, op.version, () => ({ rundown: rundown }), 'rundown');
  d.setRundown(bumped(d, { ...rundown, name: op.name }));
  return { rundownId: rundown.id };
}

export function deleteRundown(d: Draft, op: OpOf<'rundown.delete'>): RundownAck {
  requireRundown(d, op.rundownId);
  d.removeRundown(op.rundownId);
  return {};
}

export function addItem(d: Draft, op: OpOf<'item.add'>): RundownAck {
  const rundown = requireRundown(d, op.rundownId);
  const limit = d.tick.limits.itemsPerRundown;
  if (rundown.items.length >= limit) {
    throw new AppError('limit_reached', `A rundown holds at most ${limit} items (${ITEMS}).`, {
      extra: { limit, setting: ITEMS },
    });
  }
  const def = d.requireScene(op.fields.sceneId);
  const item: RundownItem = {
    id: op.itemId,
    sceneId: op.fields.sceneId,
    values: mergedValues({}, itemValues(def, op.fields.values ?? {})),
    label: op.fields.label ?? '',
    notes: op.fields.notes ?? '',
    durationMs: op.fields.durationMs ?? null,
    state: 'ready',
    version: 1,
  };
  const items = placed([...rundown.items], item, op.position);
  d.setRundown(bumped(d, { ...rundown, items, focus: rundown.focus ?? item.id }));
  return { rundownId: rundown.id, itemId: item.id };
}

export function editItem(d: Draft, op: OpOf<'item.edit'>): RundownAck {
  const rundown = requireRundown(d, op.rundownId);
  const item = requireItem(rundown, op.itemId);
  checkVersion(item.version, op.version, () => ({ item }), 'item');
  const next = editedItem(d, item, op.fields);
  const rest = rundown.items.filter((i) => i.id !== item.id);
  const at = op.position ?? rundown.items.indexOf(item);
  const items = placed(rest, next, at);
  const moved = op.position !== undefined && op.position !== rundown.items.indexOf(item);
  // A move changes the list (the rundown's version); an edit of the item alone changes the item's.
  d.setRundown(moved ? bumped(d, { ...rundown, items }) : { ...rundown, items, updatedAt: d.tick.nowIso });
  return { rundownId: rundown.id, itemId: item.id };
}

export function duplicateItem(d: Draft, op: OpOf<'item.duplicate'>): RundownAck {
  const rundown = requireRundown(d, op.rundownId);
  const item = requireItem(rundown, op.itemId);
  if (rundown.items.length >= d.tick.limits.itemsPerRundown) {
    const limit = d.tick.limits.itemsPerRundown;
    throw new AppError('limit_reached', `A rundown holds at most ${limit} items (${ITEMS}).`, {
      extra: { limit, setting: ITEMS },
    });
  }
  const copy: RundownItem = { ...item, id: op.newItemId, state: 'ready', version: 1 };
  const items = placed([...rundown.items], copy, rundown.items.indexOf(item) + 1);
  d.setRundown(bumped(d, { ...rundown, items }));
  return { rundownId: rundown.id, itemId: copy.id };
}

export function deleteItem(d: Draft, op: OpOf<'item.delete'>): RundownAck {
  const rundown = requireRundown(d, op.rundownId);
  const item = requireItem(rundown, op.itemId);
  const index = rundown.items.indexOf(item);
  const items = rundown.items.filter((i) => i !== item);
  // The focus moves on to the item that took its place (or the new last one).
  const focus = rundown.focus === item.id ? (items[Math.min(index, items.length - 1)]?.id ?? null) : rundown.focus;
  d.setRundown(bumped(d, { ...rundown, items, focus }));
  return { rundownId: rundown.id };
}

/** Moves the shared focus; not a version change (it is where operators are, not what the rundown holds). */
export function focusItem(d: Draft, op: OpOf<'rundown.focus'>): RundownAck {
  const rundown = requireRundown(d, op.rundownId);
  const focus = op.itemId !== undefined ? requireItem(rundown, op.itemId).id : moved(rundown, op.move ?? 'next');
  if (focus !== rundown.focus) d.setRundown({ ...rundown, focus, updatedAt: d.tick.nowIso });
  return { rundownId: rundown.id };
}

/** Cues the item (default: the focused one) into preview, with its values, and focuses it. */
export function cueItem(d: Draft, op: OpOf<'rundown.cue'>): RundownAck {
  const rundown = requireRundown(d, op.rundownId);
  const item = op.itemId !== undefined ? requireItem(rundown, op.itemId) : focused(rundown);
  cueInstance(d, { itemId: item.id }, op.by);
  if (rundown.focus !== item.id) d.setRundown({ ...d.live.rundowns.get(rundown.id)!, focus: item.id });
  return { rundownId: rundown.id, itemId: item.id };
}

/**
 * Plays the next item in one frame: the focused item, or the one after it when the focused one is on air or done;
 * it is cued and taken at once, and the focus moves on to the item after it.
 */
export function playNext(d: Draft, op: OpOf<'rundown.play_next'>): RundownAck {
  const rundown = requireRundown(d, op.rundownId);
  const item = nextToPlay(rundown);
  // Anything else cued on that layer stays cued for later only if it is not where this item goes. The cue comes
  // first: it refuses an item whose scene was deleted with `conflict`, as rundown.cue does.
  cueInstance(d, { itemId: item.id }, op.by);
  takePreview(d, d.requireScene(item.sceneId).layer, op.by);
  const index = rundown.items.indexOf(item);
  const focus = rundown.items[index + 1]?.id ?? item.id;
  const current = d.live.rundowns.get(rundown.id)!;
  if (current.focus !== focus) d.setRundown({ ...current, focus });
  return { rundownId: rundown.id, itemId: item.id };
}

/** Takes the item (default: this rundown's items on air) off air, with its layer's out transition. */
export function stopItem(d: Draft, op: OpOf<'rundown.stop'>, since?: string): RundownAck {
  const rundown = requireRundown(d, op.rundownId);
  const ids =
    op.itemId !== undefined ? new Set([requireItem(rundown, op.itemId).id]) : new Set(rundown.items.map((i) => i.id));
  offAir(d, (e) => e.itemId !== null && ids.has(e.itemId) && (since === undefined || e.since === since), op.by, false);
  return op.itemId !== undefined ? { rundownId: rundown.id, itemId: op.itemId } : { rundownId: rundown.id };
}

/**
 * Item states after the tick's ops: in preview or on air as the buses say; an item that left air is done, one that
 * left preview without airing is ready again. Recomputed only when the buses or the rundowns changed.
 */
export function refreshItemStates(d: Draft): void {
  const onAir = new Set(d.live.program.flatMap((e) => (e.itemId ? [e.itemId] : [])));
  const cued = new Set(d.live.preview.flatMap((e) => (e.itemId ? [e.itemId] : [])));
  for (const rundown of d.live.rundowns.values()) {
    let changed = false;
    const items = rundown.items.map((item) => {
      const state: ItemState = onAir.has(item.id)
        ? 'program'
        : cued.has(item.id)
          ? 'preview'
          : item.state === 'program'
            ? d.notAired.has(item.id)
              ? 'ready'
              : 'done'
            : item.state === 'preview'
              ? 'ready'
              : item.state;
      if (state === item.state) return item;
      changed = true;
      return { ...item, state };
    });
    if (changed) d.setRundown({ ...rundown, items });
  }
}

export function requireRundown(d: Draft, rundownId: string): Rundown {
  const rundown = d.live.rundowns.get(rundownId);
  if (!rundown) throw new AppError('not_found', `Rundown ${rundownId} is not in this channel.`);
  return rundown;
}

function requireItem(rundown: Rundown, itemId: string): RundownItem {
  const item = rundown.items.find((i) => i.id === itemId);
  if (!item) throw new AppError('not_found', `Item ${itemId} is not in rundown ${rundown.id}.`);
  return item;
}

function checkVersion(current: number, given: number, body: () => Record<string, unknown>, what: string): void {
  if (current === given) return;
  throw new AppError(
    'version_conflict',
    `The ${what} changed since version ${given}: it is at version ${current}. Read it again and redo your edit.`,
    { extra: { current: body()[what], version: current } },
  );
}

function editedItem(d: Draft, item: RundownItem, fields: ItemFields): RundownItem {
  const sceneId = fields.sceneId ?? item.sceneId;
  const def = d.requireScene(sceneId);
  let values = item.values;
  if (sceneId !== item.sceneId) values = {};
  if (fields.values !== undefined) values = mergedValues(values, itemValues(def, fields.values));
  return {
    ...item,
    sceneId,
    values,
    label: fields.label ?? item.label,
    notes: fields.notes ?? item.notes,
    durationMs: fields.durationMs !== undefined ? fields.durationMs : item.durationMs,
    version: item.version + 1,
  };
}

function bumped(d: Draft, rundown: Rundown): Rundown {
  return { ...rundown, version: rundown.version + 1, updatedAt: d.tick.nowIso };
}

function placed(items: RundownItem[], item: RundownItem, position: number | undefined): RundownItem[] {
  const at = position === undefined ? items.length : Math.max(0, Math.min(position, items.length));
  items.splice(at, 0, item);
  return items;
}

function focused(rundown: Rundown): RundownItem {
  const item = rundown.items.find((i) => i.id === rundown.focus);
  if (!item) throw new AppError('conflict', `Rundown ${rundown.id} has no focused item; focus one first.`);
  return item;
}

function moved(rundown: Rundown, move: FocusMove): string | null {
  const { items } = rundown;
  if (items.length === 0) return null;
  const at = items.findIndex((i) => i.id === rundown.focus);
  const index =
    move === 'first'
      ? 0
      : move === 'last'
        ? items.length - 1
        : move === 'next'
          ? Math.min(at + 1, items.length - 1)
          : Math.max(at < 0 ? 0 : at - 1, 0);
  return items[index]!.id;
}

function nextToPlay(rundown: Rundown): RundownItem {
  const { items } = rundown;
  const at = Math.max(
    0,
    items.findIndex((i) => i.id === rundown.focus),
  );
  const start = items[at];
  const item = start && (start.state === 'ready' || start.state === 'preview') ? start : items[at + 1];
  if (!item) {
    throw new AppError('conflict', `Rundown ${rundown.id} has no item after the focused one to play.`, {
      extra: { focus: rundown.focus },
    });
  }
  return item;
}

/**
 * Undo and redo in a tick (./history.ts says what is recorded): the touched layers and values go back to how they
 * were before the action (or after it, for redo), at this frame, through the same bus operations as a take or a
 * clear, so renderers play the usual transitions. A scene deleted since cannot come back: its layer stays as it is.
 */
import type { InputValue, PreviewEntry } from '@onair/protocol';
import { entryAt, without, withEntry } from './buses.js';
import { offAir, toAir } from './bus-ops.js';
import type { Draft } from './draft.js';
import { nextToRevisit, type HistorySide } from './history.js';
import type { Origin } from './ops.js';

export function revisit(d: Draft, direction: 'undo' | 'redo', by: Origin): void {
  const target = nextToRevisit(d.live.history, direction);
  restore(d, direction === 'undo' ? target.before! : target.after!, by);
  if (direction === 'undo') takeBackItems(d, target.after!);
  const { frame, nowIso } = d.tick;
  d.pushHistory({
    id: `his_${d.tick.eventId().slice(4)}`,
    kind: direction,
    actor: by.actor,
    frame,
    at: nowIso,
    of: target.id,
  });
  d.event(direction === 'undo' ? 'channel.undone' : 'channel.redone', {
    of: target.id,
    kind: target.kind,
    frame,
    ...by,
  });
}

/**
 * Rundown items the undone action put on air, and that are off air again, never aired as far as the show goes: they
 * are ready again (not done), and the focus goes back to the one a play next took, so playing next plays it again.
 */
function takeBackItems(d: Draft, after: HistorySide): void {
  const onAir = new Set(d.live.program.map((e) => e.itemId));
  const aired = Object.values(after.program).flatMap((e) => (e?.itemId && !onAir.has(e.itemId) ? [e.itemId] : []));
  for (const itemId of aired) {
    d.notAired.add(itemId);
    for (const rundown of d.live.rundowns.values()) {
      if (rundown.items.some((i) => i.id === itemId) && rundown.focus !== itemId) {
        d.setRundown({ ...rundown, focus: itemId });
      }
    }
  }
}

function restore(d: Draft, side: HistorySide, by: Origin): void {
  const fits = (e: { sceneId: string; layer: number }) => d.rt.scenes.get(e.sceneId)?.definition.layer === e.layer;
  for (const [key, entry] of Object.entries(side.program)) {
    const layer = Number(key);
    const current = entryAt(d.live.program, layer) ?? null;
    if (entry === null) offAir(d, (e) => e.layer === layer, by, false);
    else if (fits(entry) && current !== entry)
      toAir(d, { sceneId: entry.sceneId, layer, itemId: entry.itemId, values: entry.values }, by);
  }
  let preview: PreviewEntry[] = d.live.preview;
  for (const [key, entry] of Object.entries(side.preview)) {
    const layer = Number(key);
    if (entry === null) preview = without(preview, (e) => e.layer === layer);
    else if (fits(entry))
      preview = withEntry(preview, { sceneId: entry.sceneId, layer, itemId: entry.itemId, values: entry.values });
  }
  if (preview !== d.live.preview) d.setPreview(preview);
  const values = new Map<string, InputValue>();
  for (const [name, value] of Object.entries(side.values)) {
    const def = d.rt.registry.get(name);
    if (def && def.type !== 'clock') values.set(name, value);
  }
  if (values.size > 0) d.patchValues(values, by);
}

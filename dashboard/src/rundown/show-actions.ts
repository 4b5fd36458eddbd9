/**
 * What the operator runs the show with, from the rundown (docs/dashboard.md, "The rundown"): cue the focused item,
 * play next, continue, stop, update on air, save an item, undo and redo. The buttons and the keys call these same
 * functions; each reads the channel as it is when called, so a key pressed faster than a re-render acts on the latest.
 */
import type { Rundown, RundownItem } from '@onair/protocol';
import type { ChannelState } from '../../../renderer/src/channel-state.js';
import { OpError, type LiveChannel } from '../live/live-socket.js';
import { changesOf, itemInputs, itemName, valuesWithDraft, type ItemDrafts } from './item-drafts.js';

export interface Show {
  live: LiveChannel;
  state: ChannelState;
  /** The rundown open in this view; null when the channel has none (or none is picked). */
  rundown: Rundown | null;
  drafts: ItemDrafts;
}

/** The show as it is now: the latest channel state and the picked rundown in it. */
export function showNow(live: LiveChannel, rundownId: string | null, drafts: ItemDrafts): Show {
  const state = live.state.value;
  return { live, state, rundown: (rundownId && state.rundowns[rundownId]) || null, drafts };
}

const quiet = (sent: Promise<unknown>) => void sent.catch(() => undefined);

export function focusedItem(show: Show): RundownItem | null {
  return show.rundown?.items.find((i) => i.id === show.rundown?.focus) ?? null;
}

export function nameOf(show: Show, item: RundownItem): string {
  return itemName(item, show.state.scenes[item.sceneId]);
}

function withRundown(show: Show, label: string, act: (rundown: Rundown) => void): void {
  if (show.rundown) act(show.rundown);
  else show.live.refuse(label, 'No rundown is open: pick or create one.');
}

export function cueFocused(show: Show): void {
  withRundown(show, 'Cue', (rundown) => {
    const item = focusedItem(show);
    const label = item ? `Cue ${nameOf(show, item)}` : 'Cue';
    quiet(show.live.send(label, { op: 'rundown.cue', rundownId: rundown.id }));
  });
}

export function playNext(show: Show): void {
  withRundown(show, 'Play next', (rundown) =>
    quiet(show.live.send('Play next', { op: 'rundown.play_next', rundownId: rundown.id })),
  );
}

/** Takes this rundown's items on air off air (each with its out transition). */
export function stopRundown(show: Show): void {
  withRundown(show, 'Stop', (rundown) => quiet(show.live.send('Stop', { op: 'rundown.stop', rundownId: rundown.id })));
}

export function moveFocus(show: Show, move: 'next' | 'previous'): void {
  withRundown(show, 'Move focus', (rundown) =>
    quiet(
      show.live.send(move === 'next' ? 'Focus ↓' : 'Focus ↑', { op: 'rundown.focus', rundownId: rundown.id, move }),
    ),
  );
}

export function focusOn(show: Show, item: RundownItem): void {
  withRundown(show, 'Focus', (rundown) =>
    quiet(
      show.live.send(`Focus ${nameOf(show, item)}`, { op: 'rundown.focus', rundownId: rundown.id, itemId: item.id }),
    ),
  );
}

export const take = (live: LiveChannel) => quiet(live.send('Take', { op: 'take' }));
export const continueOnAir = (live: LiveChannel) => quiet(live.send('Continue', { op: 'continue' }));
export const undo = (live: LiveChannel) => quiet(live.send('Undo', { op: 'undo' }));
export const redo = (live: LiveChannel) => quiet(live.send('Redo', { op: 'redo' }));

/**
 * Saves what the operator typed into the item, naming the version the edit started from. Refused because someone
 * else changed the item meanwhile, the draft is dropped (the item shows what is saved now) and a notice says so.
 */
export async function saveItem(show: Show, item: RundownItem): Promise<void> {
  const { live, rundown, drafts } = show;
  const draft = drafts.drafts.value[item.id];
  const changes = changesOf(item, draft);
  if (!rundown || !draft) return;
  if (!changes) return drafts.discard(item.id);
  const name = nameOf(show, item);
  try {
    const ack = await live.send(`Save ${name}`, {
      op: 'rundown.item_edit',
      rundownId: rundown.id,
      itemId: item.id,
      version: draft.version,
      ...changes,
    });
    // Typed on while the save was in flight: keep that, now based on the saved version.
    if (drafts.drafts.value[item.id] === draft) drafts.discard(item.id);
    else if (ack.item) drafts.rebase(item.id, draft.version, ack.item.version);
  } catch (err) {
    if (!(err instanceof OpError)) throw err;
    if (err.code !== 'version_conflict') return drafts.notice(item.id, `Not saved: ${err.detail}`);
    drafts.discard(item.id);
    drafts.notice(
      item.id,
      `Not saved: someone else changed “${name}” while you were editing it. ` +
        'It now shows what is saved; make your change again.',
    );
  }
}

/**
 * Update on air: the focused item, which must be on air, gets its values as edited here at the next frame (every
 * item input is sent, so the air matches the item exactly); then the edit is saved into the item too, so playing it
 * again later shows the same.
 */
export async function updateOnAir(show: Show): Promise<void> {
  const { live, state } = show;
  const item = focusedItem(show);
  if (!item) return live.refuse('Update on air', 'No rundown item is focused.');
  const name = nameOf(show, item);
  const entry = state.program.find((e) => e.itemId === item.id);
  if (!entry) return live.refuse(`Update on air: ${name}`, 'The focused item is not on air.');
  const merged = valuesWithDraft(item, show.drafts.drafts.value[item.id]);
  const inputs = itemInputs(state.scenes[item.sceneId]);
  const values = Object.fromEntries(inputs.map((def) => [def.name, merged[def.name] ?? null]));
  try {
    await live.send(`Update on air: ${name}`, { op: 'update', layer: entry.layer, values });
  } catch {
    return;
  }
  await saveItem(show, item);
}

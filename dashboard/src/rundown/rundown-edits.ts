/**
 * Changes to the rundown itself (docs/dashboard.md, "The rundown"): create and delete rundowns, add, duplicate,
 * delete and move items. Each is a WebSocket op the server applies at the next tick, so every operator sees it.
 */
import type { InputValue, Rundown, RundownItem } from '@onair/protocol';
import type { ChannelState } from '../../../renderer/src/channel-state.js';
import type { LiveChannel } from '../live/live-socket.js';
import { itemName, type ItemDrafts } from './item-drafts.js';

/** The channel's rundowns, oldest first (the order they were created in). */
export function rundownsOf(state: ChannelState): Rundown[] {
  return Object.values(state.rundowns).sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
}

/** Creates a rundown; resolves with its id (null when refused: the actions list says why). */
export async function createRundown(live: LiveChannel, name: string): Promise<string | null> {
  try {
    const ack = await live.send(`New rundown ${name}`, { op: 'rundown.create', name });
    return ack.rundown?.id ?? null;
  } catch {
    return null;
  }
}

export function deleteRundown(live: LiveChannel, rundown: Rundown): void {
  void live
    .send(`Delete rundown ${rundown.name}`, { op: 'rundown.delete', rundownId: rundown.id })
    .catch(() => undefined);
}

export interface NewItem {
  sceneId: string;
  label: string;
  values: Record<string, InputValue>;
}

/** Adds an item at the end of the rundown; resolves true once the server has it. */
export async function addItem(live: LiveChannel, rundown: Rundown, item: NewItem, sceneName: string): Promise<boolean> {
  const label = item.label.trim();
  try {
    await live.send(`Add ${label || sceneName}`, {
      op: 'rundown.item_add',
      rundownId: rundown.id,
      sceneId: item.sceneId,
      values: item.values,
      ...(label ? { label } : {}),
    });
    return true;
  } catch {
    return false;
  }
}

export function duplicateItem(live: LiveChannel, state: ChannelState, rundown: Rundown, item: RundownItem): void {
  const name = itemName(item, state.scenes[item.sceneId]);
  void live
    .send(`Duplicate ${name}`, { op: 'rundown.item_duplicate', rundownId: rundown.id, itemId: item.id })
    .catch(() => undefined);
}

export function deleteItem(live: LiveChannel, state: ChannelState, rundown: Rundown, item: RundownItem): void {
  const name = itemName(item, state.scenes[item.sceneId]);
  void live
    .send(`Delete ${name}`, { op: 'rundown.item_delete', rundownId: rundown.id, itemId: item.id })
    .catch(() => undefined);
}

/**
 * Moves an item one place up or down. A move is an edit of the item (it names the item's version); an unsaved draft
 * of it is carried over to the version the move makes, so the operator's own move never reads as someone else's edit.
 */
export async function moveItem(
  live: LiveChannel,
  state: ChannelState,
  rundown: Rundown,
  item: RundownItem,
  by: -1 | 1,
  drafts: ItemDrafts,
): Promise<void> {
  const position = rundown.items.indexOf(item) + by;
  if (position < 0 || position >= rundown.items.length) return;
  const name = itemName(item, state.scenes[item.sceneId]);
  try {
    const ack = await live.send(`Move ${name} ${by < 0 ? 'up' : 'down'}`, {
      op: 'rundown.item_edit',
      rundownId: rundown.id,
      itemId: item.id,
      version: item.version,
      position,
    });
    if (ack.item) drafts.rebase(item.id, item.version, ack.item.version);
  } catch {
    // The actions list says why.
  }
}

const PICKED_KEY = (channelId: string) => `onair.rundown.${channelId}`;

/** The rundown this operator last opened on this channel (kept for the tab's session). */
export function rememberedRundown(channelId: string): string | null {
  try {
    return sessionStorage.getItem(PICKED_KEY(channelId));
  } catch {
    return null;
  }
}

export function rememberRundown(channelId: string, rundownId: string): void {
  try {
    sessionStorage.setItem(PICKED_KEY(channelId), rundownId);
  } catch {
    // Not kept: the view opens the first rundown next time.
  }
}

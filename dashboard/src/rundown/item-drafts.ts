/**
 * What this operator has typed into rundown items and not saved yet, item by item (a draft survives the shared focus
 * moving away and back). A draft remembers the item's version it started from: saving names that version, so an item
 * someone else changed meanwhile is refused (409 version_conflict) instead of silently overwritten.
 */
import { signal, type Signal } from '@preact/signals';
import type { InputDef, InputValue, RundownItem, SceneView } from '@onair/protocol';

export interface ItemDraft {
  /** The item's version when the edit began. */
  version: number;
  label?: string;
  notes?: string;
  durationMs?: number | null;
  values: Record<string, InputValue>;
}

/** The fields an item edit sends: only those that differ from the saved item. */
export interface ItemChanges {
  label?: string;
  notes?: string;
  durationMs?: number | null;
  values?: Record<string, InputValue>;
}

export interface ItemDrafts {
  drafts: Signal<Record<string, ItemDraft>>;
  /** A message per item whose last save was refused (shown until the next edit of it). */
  notices: Signal<Record<string, string>>;
  edit(item: RundownItem, change: Partial<Omit<ItemDraft, 'version' | 'values'>>): void;
  editValue(item: RundownItem, name: string, value: InputValue): void;
  discard(itemId: string): void;
  /** The draft now starts from `version` (the item changed by this operator's own move, not by an edit). */
  rebase(itemId: string, from: number, to: number): void;
  notice(itemId: string, message: string | null): void;
}

export function createItemDrafts(): ItemDrafts {
  const drafts = signal<Record<string, ItemDraft>>({});
  const notices = signal<Record<string, string>>({});
  const put = (itemId: string, draft: ItemDraft | null) => {
    const next = { ...drafts.value };
    if (draft) next[itemId] = draft;
    else delete next[itemId];
    drafts.value = next;
  };
  const start = (item: RundownItem): ItemDraft => drafts.value[item.id] ?? { version: item.version, values: {} };
  const notice = (itemId: string, message: string | null) => {
    const next = { ...notices.value };
    if (message) next[itemId] = message;
    else delete next[itemId];
    notices.value = next;
  };
  return {
    drafts,
    notices,
    edit(item, change) {
      notice(item.id, null);
      put(item.id, { ...start(item), ...change });
    },
    editValue(item, name, value) {
      notice(item.id, null);
      const draft = start(item);
      put(item.id, { ...draft, values: { ...draft.values, [name]: value } });
    },
    discard: (itemId) => put(itemId, null),
    rebase(itemId, from, to) {
      const draft = drafts.value[itemId];
      if (draft && draft.version === from) put(itemId, { ...draft, version: to });
    },
    notice,
  };
}

/** The item's inputs an item holds values for (its scene's item-scoped inputs). */
export function itemInputs(scene: SceneView | undefined): InputDef[] {
  return scene?.definition.inputs.filter((def) => def.scope === 'item' && def.type !== 'clock') ?? [];
}

/** The item's values with the draft's typed over them (a null is "back to the default": left out). */
export function valuesWithDraft(item: RundownItem, draft: ItemDraft | undefined): Record<string, InputValue> {
  const out: Record<string, InputValue> = { ...item.values };
  for (const [name, value] of Object.entries(draft?.values ?? {})) {
    if (value === null) delete out[name];
    else out[name] = value;
  }
  return out;
}

/** What saving the draft changes, or null when it changes nothing. */
export function changesOf(item: RundownItem, draft: ItemDraft | undefined): ItemChanges | null {
  if (!draft) return null;
  const changes: ItemChanges = {};
  if (draft.label !== undefined && draft.label !== item.label) changes.label = draft.label;
  if (draft.notes !== undefined && draft.notes !== item.notes) changes.notes = draft.notes;
  if (draft.durationMs !== undefined && draft.durationMs !== item.durationMs) changes.durationMs = draft.durationMs;
  const values = Object.fromEntries(
    Object.entries(draft.values).filter(([name, value]) => (item.values[name] ?? null) !== value),
  );
  if (Object.keys(values).length > 0) changes.values = values;
  return Object.keys(changes).length > 0 ? changes : null;
}

/** How an item is named in lists and messages: its label, else its first text value, else its scene's name. */
export function itemName(item: RundownItem, scene: SceneView | undefined): string {
  if (item.label.trim() !== '') return item.label;
  const text = Object.values(item.values).find((v) => typeof v === 'string' && v.trim() !== '');
  return typeof text === 'string' ? text : (scene?.name ?? item.sceneId);
}

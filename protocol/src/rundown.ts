/**
 * The show as it is prepared (docs/rundowns.md): rundowns of items, each a scene with its own values; operations
 * scheduled at a time; the history of on-air actions that undo walks back. The server holds them in the channel's
 * state, so every operator (and every node) sees the same rundown, focus and schedule.
 */
import type { Actor } from './actor.js';
import type { InputValue } from './scene.js';

/** Where an item stands: not yet used, cued in preview, on air, or aired and gone. */
export const ITEM_STATES = ['ready', 'preview', 'program', 'done'] as const;
export type ItemState = (typeof ITEM_STATES)[number];

export interface RundownItem {
  id: string;
  sceneId: string;
  /** The item's own values: item-scoped inputs of its scene only. */
  values: Record<string, InputValue>;
  label: string;
  notes: string;
  /** Taken to air, it leaves by itself after this long (auto-out); null: it stays until stopped. */
  durationMs: number | null;
  state: ItemState;
  /** Grows by one with every edit; an edit names the version it read (409 version_conflict otherwise). */
  version: number;
}

export interface Rundown {
  id: string;
  channelId: string;
  name: string;
  items: RundownItem[];
  /** The item the operators are on: what cue and play next start from. Shared by everyone. */
  focus: string | null;
  /** Grows by one with every rename and every change to the list (an item added, moved or deleted). */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** What a scheduled entry does when its time comes (the same operations as the playout API). */
export type ScheduledAction =
  | { kind: 'take'; layer?: number }
  | { kind: 'clear'; layer?: number; sceneId?: string }
  | { kind: 'cue' | 'program'; sceneId: string; values?: Record<string, InputValue> }
  | { kind: 'cue' | 'program'; rundownId: string; itemId: string }
  /**
   * The item leaves air if it is on air (since `since`, when given: an auto-out the server schedules itself when the
   * item is taken, which a later take of the same item does not inherit).
   */
  | { kind: 'stop'; rundownId: string; itemId: string; since?: string };

export interface ScheduledOp {
  id: string;
  /** ISO 8601 time the operator asked for. */
  at: string;
  /** The frame that holds `at`: the op is applied in that frame's tick. */
  frame: number;
  op: ScheduledAction;
  /** Who scheduled it (the server itself for an auto-out). */
  actor: Actor;
  createdAt: string;
}

/** Kinds of on-air actions the history records (docs/rundowns.md, "Undo"). */
export const HISTORY_KINDS = [
  'cue',
  'cut',
  'take',
  'clear',
  'values',
  'update',
  'rundown.cue',
  'rundown.play_next',
  'rundown.stop',
  'undo',
  'redo',
] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** One recorded action as the API lists it. */
export interface HistoryAction {
  id: string;
  kind: HistoryKind;
  actor: Actor;
  frame: number;
  at: string;
  /** For undo and redo: the action taken back or done again. */
  of?: string;
}

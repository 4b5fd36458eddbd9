/**
 * The channel's on-air history and its undo (docs/rundowns.md, "Undo"). Every operator action that changes the buses
 * or the channel's values (an API key's or a dashboard user's; also what the schedule did) is recorded with what it
 * touched, before and after: the layers of each bus and the values it changed, nothing else. Undo puts those back as
 * they were, at the next frame, as an action of its own; redo does the action again. What incoming hooks and data
 * sources set is not recorded, so undoing a take never rewinds the score a scorekeeper's server sent meanwhile.
 *
 * One stack per channel, whoever acted: the show's last action, the same from the dashboard or a Stream Deck. The
 * undo and redo stacks are read from the history itself (an undo entry takes its action off the undo stack onto the
 * redo one), so they survive a restart with it.
 */
import type { Actor, HistoryAction, HistoryKind, InputValue, PreviewEntry, ProgramEntry } from '@onair/protocol';
import { AppError } from '../errors.js';
import type { Origin } from './ops.js';

/** What one action touched, on one side of it: each touched layer's entry (null: empty) and each touched value. */
export interface HistorySide {
  program: Record<number, ProgramEntry | null>;
  preview: Record<number, PreviewEntry | null>;
  /** Stored values (null: the input was at its default). */
  values: Record<string, InputValue>;
}

export interface HistoryRecord extends HistoryAction {
  /** Absent on undo and redo entries: they point at the action (`of`). */
  before?: HistorySide;
  after?: HistorySide;
}

/** The buses and values an action starts from. */
export interface HistoryMark {
  program: readonly ProgramEntry[];
  preview: readonly PreviewEntry[];
  values: ReadonlyMap<string, Exclude<InputValue, null>>;
}

/** Actors whose actions are recorded: people and the keys they use, and the schedule they set. */
const RECORDED = new Set<Actor['type']>(['user', 'key', 'schedule']);

export function isRecorded(by: Origin): boolean {
  return RECORDED.has(by.actor.type);
}

/** What moved between `before` and `after`, or null when nothing did. */
export function touched(before: HistoryMark, after: HistoryMark): { before: HistorySide; after: HistorySide } | null {
  const b: HistorySide = { program: {}, preview: {}, values: {} };
  const a: HistorySide = { program: {}, preview: {}, values: {} };
  let any = false;
  for (const bus of ['program', 'preview'] as const) {
    const was = byLayer(before[bus]);
    const now = byLayer(after[bus]);
    for (const layer of new Set([...was.keys(), ...now.keys()])) {
      const x = was.get(layer) ?? null;
      const y = now.get(layer) ?? null;
      if (x === y) continue;
      b[bus][layer] = x;
      a[bus][layer] = y;
      any = true;
    }
  }
  for (const name of new Set([...before.values.keys(), ...after.values.keys()])) {
    const x = before.values.get(name) ?? null;
    const y = after.values.get(name) ?? null;
    if (x === y) continue;
    b.values[name] = x;
    a.values[name] = y;
    any = true;
  }
  return any ? { before: b, after: a } : null;
}

/**
 * `later` folded into `earlier` (two value changes of one actor in one tick are one action): the first one's
 * before, the last one's after.
 */
export function coalesced(earlier: HistoryRecord, later: { before: HistorySide; after: HistorySide }): HistoryRecord {
  const before: HistorySide = {
    program: { ...later.before.program, ...earlier.before!.program },
    preview: { ...later.before.preview, ...earlier.before!.preview },
    values: { ...later.before.values, ...earlier.before!.values },
  };
  const after: HistorySide = {
    program: { ...earlier.after!.program, ...later.after.program },
    preview: { ...earlier.after!.preview, ...later.after.preview },
    values: { ...earlier.after!.values, ...later.after.values },
  };
  return { ...earlier, before, after };
}

/** The ids an undo and a redo would take back or do again, last first. */
export function stacks(history: readonly HistoryRecord[]): { undo: string[]; redo: string[] } {
  const undo: string[] = [];
  let redo: string[] = [];
  for (const r of history) {
    if (r.kind === 'undo') move(undo, redo, r.of);
    else if (r.kind === 'redo') move(redo, undo, r.of);
    else {
      undo.push(r.id);
      redo = [];
    }
  }
  return { undo, redo };
}

function move(from: string[], to: string[], id: string | undefined): void {
  const at = id === undefined ? -1 : from.lastIndexOf(id);
  if (at < 0) return;
  from.splice(at, 1);
  to.push(id!);
}

/** The action an undo (or redo) applies to, or 409 nothing_to_undo. */
export function nextToRevisit(history: readonly HistoryRecord[], direction: 'undo' | 'redo'): HistoryRecord {
  const ids = stacks(history)[direction];
  const byId = new Map(history.map((r) => [r.id, r]));
  for (let i = ids.length - 1; i >= 0; i--) {
    const found = byId.get(ids[i]!);
    if (found?.before && found.after) return found;
  }
  throw new AppError(
    'nothing_to_undo',
    direction === 'undo' ? 'There is nothing to undo on this channel.' : 'There is nothing to redo on this channel.',
  );
}

/** History as the API lists it: without what each action touched. */
export function historyAction(r: HistoryRecord): HistoryAction {
  const out: HistoryAction = { id: r.id, kind: r.kind, actor: r.actor, frame: r.frame, at: r.at };
  if (r.of !== undefined) out.of = r.of;
  return out;
}

export type { HistoryKind };

function byLayer<T extends { layer: number }>(bus: readonly T[]): Map<number, T> {
  return new Map(bus.map((e) => [e.layer, e]));
}

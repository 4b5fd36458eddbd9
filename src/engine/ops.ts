/**
 * Operations queued on a channel and applied, in arrival order, at the next tick. Each carries who asked (`by`): its
 * events and its history entry say so.
 */
import type { AppError } from '../errors.js';
import type {
  Actor,
  ClockAction,
  ClockState,
  InputValue,
  Rundown,
  RundownItem,
  ScheduledAction,
  ScheduledOp,
} from '@onair/protocol';
import type { OutputEventType } from './events.js';
import type { ChangeSource } from './model.js';

/** Where a change came from and who made it, carried into its events. */
export interface Origin {
  source: ChangeSource;
  actor: Actor;
}

/**
 * A scene instance to put on a bus: a scene with its own values (item-scoped inputs), or a rundown item (its scene
 * and values, read when the op is applied).
 */
export type Instance =
  | { sceneId: string; values?: Record<string, InputValue> | undefined; itemId?: undefined }
  | { itemId: string; sceneId?: undefined; values?: undefined };

/** What an item edit may change. */
export interface ItemFields {
  sceneId?: string | undefined;
  values?: Record<string, InputValue> | undefined;
  label?: string | undefined;
  notes?: string | undefined;
  durationMs?: number | null | undefined;
}

export type FocusMove = 'next' | 'previous' | 'first' | 'last';

export type Op = (
  | { kind: 'patch'; values: Map<string, InputValue> }
  | ({ kind: 'cue' } & Instance)
  | ({ kind: 'cut' } & Instance)
  /** Every cued layer to air at once, or only `layer`. */
  | { kind: 'take'; layer?: number | undefined }
  /** Everything off air, or one layer, or one scene. */
  | { kind: 'clear'; layer?: number | undefined; sceneId?: string | undefined }
  /** New values for the instance on air on `layer` (or of `sceneId`): its item-scoped inputs. */
  | { kind: 'update'; layer?: number | undefined; sceneId?: string | undefined; values: Record<string, InputValue> }
  /**
   * The next step of the scenes on air (on `layer`): a graphic's next step, a native scene's `next` trigger. With
   * `step`, the graphics go to that step instead (0-based, held to their step count) and no trigger fires.
   */
  | { kind: 'continue'; layer?: number | undefined; step?: number | undefined }
  /** `payload`: what a graphic's custom action is run with (renderers get it with the fired trigger). */
  /** `layer`: only the scenes on that layer (of program or preview). */
  | { kind: 'trigger'; name: string; payload?: unknown; layer?: number | undefined }
  | { kind: 'clock'; name: string; action: ClockAction; ms?: number; period?: number }
  // ---- rundowns (./rundown-ops.ts)
  | { kind: 'rundown.create'; rundownId: string; name: string }
  | { kind: 'rundown.rename'; rundownId: string; name: string; version: number }
  | { kind: 'rundown.delete'; rundownId: string }
  | {
      kind: 'item.add';
      rundownId: string;
      itemId: string;
      fields: ItemFields & { sceneId: string };
      position?: number | undefined;
    }
  | {
      kind: 'item.edit';
      rundownId: string;
      itemId: string;
      version: number;
      fields: ItemFields;
      position?: number | undefined;
    }
  | { kind: 'item.duplicate'; rundownId: string; itemId: string; newItemId: string }
  | { kind: 'item.delete'; rundownId: string; itemId: string }
  | { kind: 'rundown.focus'; rundownId: string; itemId?: string | undefined; move?: FocusMove | undefined }
  /** Cues the item (default: the focused one) and focuses it. */
  | { kind: 'rundown.cue'; rundownId: string; itemId?: string | undefined }
  /** Cues the next item to play and takes it, in one frame. */
  | { kind: 'rundown.play_next'; rundownId: string }
  /** Takes the item off air if it is on air; without one, every item of this rundown that is on air. */
  | { kind: 'rundown.stop'; rundownId: string; itemId?: string | undefined; since?: string | undefined }
  // ---- the schedule (./schedule.ts) and history (./history.ts)
  | { kind: 'schedule.add'; scheduleId: string; at: string; action: ScheduledAction }
  | { kind: 'schedule.cancel'; scheduleId: string }
  | { kind: 'undo' }
  | { kind: 'redo' }
  /** An event about the channel's outputs, recorded in the tick; it changes nothing and is not in the history. */
  | { kind: 'event'; type: OutputEventType; data: Record<string, unknown> }
) & { by: Origin };

export type OpKind = Op['kind'];

/** Every op kind, for what must check one arrived from elsewhere (another node). */
export const OP_KINDS = [
  'patch',
  'cue',
  'cut',
  'take',
  'clear',
  'update',
  'continue',
  'trigger',
  'clock',
  'rundown.create',
  'rundown.rename',
  'rundown.delete',
  'item.add',
  'item.edit',
  'item.duplicate',
  'item.delete',
  'rundown.focus',
  'rundown.cue',
  'rundown.play_next',
  'rundown.stop',
  'schedule.add',
  'schedule.cancel',
  'undo',
  'redo',
  'event',
] as const satisfies readonly OpKind[];

export interface OpResult {
  frame: number;
  /** For patches: the effective values after the patch (a null in the patch shows the default). */
  applied?: Record<string, InputValue>;
  /** For clock ops: the clock's state after the op. */
  clock?: ClockState;
  /** For rundown ops: the rundown after the op. */
  rundown?: Rundown;
  /** For item ops: the item after the op. */
  item?: RundownItem;
  /** For schedule.add: the entry. */
  scheduled?: ScheduledOp;
}

export interface PendingOp {
  op: Op;
  resolve: (result: OpResult) => void;
  reject: (error: AppError) => void;
}

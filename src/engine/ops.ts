/**
 * Operations queued on a channel and applied, in arrival order, at the next tick.
 */
import type { AppError } from '../errors.js';
import type { ClockAction, ClockState, InputValue } from '@onair/protocol';
import type { ChangeSource } from './model.js';

export type Op =
  | { kind: 'patch'; values: Map<string, InputValue>; source: ChangeSource }
  | { kind: 'cue'; sceneId: string; source: ChangeSource }
  | { kind: 'cut'; sceneId: string; source: ChangeSource }
  /** Every cued layer to air at once, or only `layer`. */
  | { kind: 'take'; layer?: number; source: ChangeSource }
  /** Everything off air, or one layer, or one scene. */
  | { kind: 'clear'; layer?: number; sceneId?: string; source: ChangeSource }
  | { kind: 'trigger'; name: string; source: ChangeSource }
  | { kind: 'clock'; name: string; action: ClockAction; ms?: number; source: ChangeSource };

export interface OpResult {
  frame: number;
  /** For patches: the effective values after the patch (a null in the patch shows the default). */
  applied?: Record<string, InputValue>;
  /** For clock ops: the clock's state after the op. */
  clock?: ClockState;
}

export interface PendingOp {
  op: Op;
  resolve: (result: OpResult) => void;
  reject: (error: AppError) => void;
}

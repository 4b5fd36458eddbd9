/**
 * Operations queued on a channel and applied, in arrival order, at the next tick.
 */
import type { AppError } from '../errors.js';
import type { InputValue } from '../protocol/index.js';
import type { ChangeSource } from './model.js';

export type Op =
  | { kind: 'patch'; values: Map<string, InputValue>; source: ChangeSource }
  | { kind: 'preview'; sceneId: string; source: ChangeSource }
  | { kind: 'program'; sceneId: string; source: ChangeSource }
  | { kind: 'take'; source: ChangeSource }
  | { kind: 'clear'; source: ChangeSource };

export interface OpResult {
  frame: number;
  /** For patches: the effective values after the patch (a null in the patch shows the default). */
  applied?: Record<string, InputValue>;
}

export interface PendingOp {
  op: Op;
  resolve: (result: OpResult) => void;
  reject: (error: AppError) => void;
}

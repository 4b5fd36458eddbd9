/**
 * What a settled attempt does to its subscription's failure count, the same in both webhook stores (WebhookStore's
 * guarantees on `settle`): a success resets the count, a failure adds one and, at `disableAfter`, disables the
 * subscription with its last error. A drop is no attempt, and a result for a delivery that had already moved on
 * (dropped by a disable, or recorded by a node whose claim ran out) changes nothing: an attempt counts once.
 */
import type { LastError, Settlement } from './webhook-store.js';

export type FailureCount =
  | { change: 'none' }
  | { change: 'count'; failures: number }
  | { change: 'disable'; failures: number; lastError: LastError };

/**
 * `failures` is the subscription's count now (undefined: it is gone); `moved` whether the settlement changed its
 * delivery.
 */
export function failureCount(
  s: Settlement,
  failures: number | undefined,
  moved: boolean,
  disableAfter: number,
): FailureCount {
  if (failures === undefined || !moved || s.state === 'dropped') return { change: 'none' };
  if (s.state === 'succeeded') return failures === 0 ? { change: 'none' } : { change: 'count', failures: 0 };
  const n = failures + 1;
  if (n < disableAfter) return { change: 'count', failures: n };
  const a = s.attempt;
  return { change: 'disable', failures: n, lastError: { at: a.at, message: a.error ?? 'failed', status: a.status } };
}

/**
 * Plain numbers the outputs add to and metrics read when scraped (src/metrics/output-metrics.ts): a report costs an
 * addition, not a metrics-library call.
 */
import { OUTPUT_EVENT_TYPES, type OutputEventType } from '../engine/index.js';

/**
 * Why a report, or part of one, was not taken as it came: `flood` over the connection's rate, `invalid` not a
 * report, `not_output` sent by a key or session, `frame_ahead` a frame this server never sent for the channel (the
 * report is dropped); `clipped` strings or lists cut to their limits, `not_on_bus` a layer whose scene is not on the
 * output's bus there (the report is kept without it).
 */
export const REPORT_REJECTIONS = ['flood', 'invalid', 'not_output', 'frame_ahead', 'clipped', 'not_on_bus'] as const;
export type ReportRejection = (typeof REPORT_REJECTIONS)[number];

export class OutputCounters {
  /** Reports taken (clipped ones included). */
  reports = 0;
  readonly rejected = Object.fromEntries(REPORT_REJECTIONS.map((r) => [r, 0])) as Record<ReportRejection, number>;
  /** Events raised, by type; `suppressed`: events over an output's cap, not raised. */
  readonly events = Object.fromEntries(OUTPUT_EVENT_TYPES.map((t) => [t, 0])) as Record<OutputEventType, number>;
  suppressed = 0;
  /** Output-token upgrades refused for a wrong or rotated token, on an existing channel. */
  refused = 0;
  /** Confirmations handed to the listeners. */
  confirmations = 0;
}

import type { RequestOptions } from '../http.js';
import type { ScheduledOp, ScheduleIn, ScheduleList } from '../types.js';
import { Resource, seg } from './base.js';

/**
 * Operations at a wall-clock time (docs/rundowns.md, "Take at a time"): the server applies each in the frame that
 * holds its time, whoever is connected, and keeps it across a restart.
 */
export class Schedule extends Resource {
  /**
   * `POST …/schedule` (a create): `op` is `{ kind: 'take', layer? }`, `{ kind: 'clear', layer?, sceneId? }`, or
   * `{ kind: 'cue' | 'program' }` with `sceneId` (and `values`) or `rundownId` and `itemId`. `at` is an ISO 8601 time
   * with a zone, or a Date; a time in the past is 400 `invalid_request`.
   */
  create(channelId: string, body: ScheduleIn, options?: RequestOptions): Promise<ScheduledOp> {
    const at = body.at instanceof Date ? body.at.toISOString() : body.at;
    const path = `/channels/${seg(channelId)}/schedule`;
    return this.http.request({ method: 'POST', path, body: { ...body, at }, idempotent: true, options });
  }

  /** `GET …/schedule`: what is scheduled, soonest first. */
  list(channelId: string, options?: RequestOptions): Promise<ScheduleList> {
    return this.http.request({ method: 'GET', path: `/channels/${seg(channelId)}/schedule`, options });
  }

  /** `DELETE …/schedule/{scheduleId}`: cancels it (404 `not_found` once it has run or been cancelled). */
  async cancel(channelId: string, scheduleId: string, options?: RequestOptions): Promise<void> {
    const path = `/channels/${seg(channelId)}/schedule/${seg(scheduleId)}`;
    await this.http.request({ method: 'DELETE', path, options });
  }
}

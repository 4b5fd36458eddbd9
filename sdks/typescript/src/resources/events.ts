import type { RequestOptions } from '../http.js';
import { paginate } from '../pagination.js';
import type { Event, EventListParams, Page } from '../types.js';
import { Resource } from './base.js';

/** The event log, oldest first, kept 7 days (docs/api.md, "Events"). */
export class Events extends Resource {
  /**
   * `GET /v1/events`: one page. A filtered page may hold fewer events than `limit`, or none, while `nextCursor` is
   * set: follow it (or use `listAll`).
   */
  list(params: EventListParams = {}, options?: RequestOptions): Promise<Page<Event>> {
    return this.http.request({ method: 'GET', path: '/events', query: { ...params }, options });
  }

  /** Every event matching the filters; `since` starts the first page, the cursor carries on from there. */
  listAll(params: EventListParams = {}, options?: RequestOptions): AsyncIterableIterator<Event> {
    const { since, cursor: start, ...filters } = params;
    return paginate(
      (cursor) => this.list(cursor === undefined ? { ...filters, since } : { ...filters, cursor }, options),
      start,
    );
  }
}

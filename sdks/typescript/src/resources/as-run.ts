import type { RequestOptions } from '../http.js';
import { paginate } from '../pagination.js';
import type { AsRunInterval, AsRunListParams, Page } from '../types.js';
import { Resource, seg } from './base.js';

/**
 * A channel's as-run log (docs/as-run.md): every interval a scene or rundown item was on program, in the order they
 * began, with its values, frames, duration, who took and cleared it and which outputs confirmed painting it.
 */
export class AsRun extends Resource {
  /** `GET …/as-run`: one page (100 by default, up to 1000) of the intervals that overlap `from`–`to`. */
  list(channelId: string, params: AsRunListParams = {}, options?: RequestOptions): Promise<Page<AsRunInterval>> {
    return this.http.request({ method: 'GET', path: this.path(channelId), query: { ...params }, options });
  }

  /** Every interval that overlaps `from`–`to`, following `nextCursor`. */
  listAll(
    channelId: string,
    params: AsRunListParams = {},
    options?: RequestOptions,
  ): AsyncIterableIterator<AsRunInterval> {
    return paginate((cursor) => this.list(channelId, { ...params, cursor }, options), params.cursor);
  }

  /** `GET …/as-run?format=csv`: the same page as CSV (RFC 4180, a header row), for a spreadsheet or a sponsor. */
  csv(channelId: string, params: AsRunListParams = {}, options?: RequestOptions): Promise<string> {
    const query = { ...params, format: 'csv' };
    return this.http.request({ method: 'GET', path: this.path(channelId), query, text: true, options });
  }

  private path(channelId: string): string {
    return `/channels/${seg(channelId)}/as-run`;
  }
}

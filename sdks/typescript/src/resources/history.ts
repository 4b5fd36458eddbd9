import type { RequestOptions } from '../http.js';
import { paginate } from '../pagination.js';
import type { HistoryAction, Page, PageParams } from '../types.js';
import { Resource, seg } from './base.js';

/**
 * A channel's on-air history (docs/rundowns.md, "Undo"): the actions `playout.undo` and `playout.redo` walk, newest
 * first, each with who did it (a key, a dashboard user, the schedule). An undo or redo names the action it took back
 * or did again in `of`. What incoming hooks set is not recorded.
 */
export class History extends Resource {
  /** `GET …/history`: one page, newest first. */
  list(channelId: string, params: PageParams = {}, options?: RequestOptions): Promise<Page<HistoryAction>> {
    return this.http.request({
      method: 'GET',
      path: `/channels/${seg(channelId)}/history`,
      query: { ...params },
      options,
    });
  }

  /** Every recorded action of the channel, newest first, following `nextCursor`. */
  listAll(channelId: string, params: PageParams = {}, options?: RequestOptions): AsyncIterableIterator<HistoryAction> {
    return paginate((cursor) => this.list(channelId, { ...params, cursor }, options), params.cursor);
  }
}

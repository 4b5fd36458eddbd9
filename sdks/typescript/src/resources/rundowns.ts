import type { RequestOptions } from '../http.js';
import type {
  FocusIn,
  ItemIn,
  ItemRefIn,
  ItemUpdate,
  Rundown,
  RundownIn,
  RundownItem,
  RundownList,
  RundownUpdate,
  State,
} from '../types.js';
import { Resource, seg } from './base.js';

/**
 * Rundowns: a channel's prepared items, each a scene with its own values, and the calls an operator runs the show
 * with (docs/rundowns.md). Every operator and node sees the same rundown and focus. Edits send the `version` they
 * read: a stale one is refused with 409 `version_conflict`, whose `current` (OnairApiError.current) is the record as
 * it is now.
 */
export class Rundowns extends Resource {
  /** `POST …/rundowns` (a create: sends an Idempotency-Key). */
  create(channelId: string, body: RundownIn, options?: RequestOptions): Promise<Rundown> {
    return this.http.request({ method: 'POST', path: this.base(channelId), body, idempotent: true, options });
  }

  /** `GET …/rundowns`: every rundown of the channel, with its items, in creation order. */
  list(channelId: string, options?: RequestOptions): Promise<RundownList> {
    return this.http.request({ method: 'GET', path: this.base(channelId), options });
  }

  /** `GET …/rundowns/{rundownId}` */
  get(channelId: string, rundownId: string, options?: RequestOptions): Promise<Rundown> {
    return this.http.request({ method: 'GET', path: this.path(channelId, rundownId), options });
  }

  /** `PATCH …/rundowns/{rundownId}`: renames it; `version` is the one you read (409 `version_conflict` if stale). */
  update(channelId: string, rundownId: string, body: RundownUpdate, options?: RequestOptions): Promise<Rundown> {
    return this.http.request({ method: 'PATCH', path: this.path(channelId, rundownId), body, options });
  }

  /** `DELETE …/rundowns/{rundownId}`: what is on air stays on air. */
  async delete(channelId: string, rundownId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', path: this.path(channelId, rundownId), options });
  }

  /**
   * `POST …/rundowns/{rundownId}/items` (a create): a scene with its own `values` (its item inputs), a `label`,
   * `notes`, a `durationMs` after which it leaves air by itself, at `position` (default: last).
   */
  addItem(channelId: string, rundownId: string, body: ItemIn, options?: RequestOptions): Promise<RundownItem> {
    const path = `${this.path(channelId, rundownId)}/items`;
    return this.http.request({ method: 'POST', path, body, idempotent: true, options });
  }

  /**
   * `PATCH …/items/{itemId}`: edits or moves (`position`) an item; fields left out keep their value. `version` is
   * the one you read: a stale one is 409 `version_conflict` with the item as it is now in `current`. An edit never
   * changes what is on air (`playout.update` does).
   */
  updateItem(
    channelId: string,
    rundownId: string,
    itemId: string,
    body: ItemUpdate,
    options?: RequestOptions,
  ): Promise<RundownItem> {
    return this.http.request({ method: 'PATCH', path: this.itemPath(channelId, rundownId, itemId), body, options });
  }

  /** `POST …/items/{itemId}/duplicate` (a create): a copy of the item, right after it. */
  duplicateItem(channelId: string, rundownId: string, itemId: string, options?: RequestOptions): Promise<RundownItem> {
    const path = `${this.itemPath(channelId, rundownId, itemId)}/duplicate`;
    return this.http.request({ method: 'POST', path, idempotent: true, options });
  }

  /** `DELETE …/items/{itemId}` */
  async deleteItem(channelId: string, rundownId: string, itemId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', path: this.itemPath(channelId, rundownId, itemId), options });
  }

  /** `POST …/focus`: moves the shared focus to `{ itemId }`, or `{ move: 'next' | 'previous' | 'first' | 'last' }`. */
  focus(channelId: string, rundownId: string, body: FocusIn, options?: RequestOptions): Promise<Rundown> {
    return this.http.request({ method: 'POST', path: `${this.path(channelId, rundownId)}/focus`, body, options });
  }

  /** `POST …/cue`: cues an item (default: the focused one) into preview, with its values. Answers the State. */
  cue(channelId: string, rundownId: string, body: ItemRefIn = {}, options?: RequestOptions): Promise<State> {
    return this.http.request({ method: 'POST', path: `${this.path(channelId, rundownId)}/cue`, body, options });
  }

  /**
   * `POST …/play-next`: cues the next item and takes it to air in one frame; the focus moves on. 409 `conflict`
   * when no item is left to play.
   */
  playNext(channelId: string, rundownId: string, options?: RequestOptions): Promise<State> {
    return this.http.request({ method: 'POST', path: `${this.path(channelId, rundownId)}/play-next`, options });
  }

  /** `POST …/stop`: takes an item off air (default: this rundown's items on air). Answers the State. */
  stop(channelId: string, rundownId: string, body: ItemRefIn = {}, options?: RequestOptions): Promise<State> {
    return this.http.request({ method: 'POST', path: `${this.path(channelId, rundownId)}/stop`, body, options });
  }

  private base(channelId: string): string {
    return `/channels/${seg(channelId)}/rundowns`;
  }

  private path(channelId: string, rundownId: string): string {
    return `${this.base(channelId)}/${seg(rundownId)}`;
  }

  private itemPath(channelId: string, rundownId: string, itemId: string): string {
    return `${this.path(channelId, rundownId)}/items/${seg(itemId)}`;
  }
}

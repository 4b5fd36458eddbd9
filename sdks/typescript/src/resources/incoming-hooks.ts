import type { RequestOptions } from '../http.js';
import type {
  IncomingHook,
  IncomingHookCreated,
  IncomingHookDelivery,
  IncomingHookIn,
  IncomingHookPatch,
  IncomingHookRefusal,
  Page,
} from '../types.js';
import { Resource, seg } from './base.js';

/** A channel's incoming webhooks (docs/incoming-hooks.md). Post to one with `client.hooks.post`. */
export class IncomingHooks extends Resource {
  /**
   * `POST /v1/channels/{id}/incoming-hooks`: the answer's `url` (and `secret`, with `requireSignature`) are shown
   * only here. A create: sends an Idempotency-Key.
   */
  create(channelId: string, body: IncomingHookIn = {}, options?: RequestOptions): Promise<IncomingHookCreated> {
    return this.http.request({
      method: 'POST',
      path: `/channels/${seg(channelId)}/incoming-hooks`,
      body,
      idempotent: true,
      options,
    });
  }

  /** `GET /v1/channels/{id}/incoming-hooks`: all of them (no URL, no secret). */
  list(channelId: string, options?: RequestOptions): Promise<Page<IncomingHook>> {
    return this.http.request({ method: 'GET', path: `/channels/${seg(channelId)}/incoming-hooks`, options });
  }

  /** `GET /v1/channels/{id}/incoming-hooks/{hookId}` */
  get(channelId: string, hookId: string, options?: RequestOptions): Promise<IncomingHook> {
    return this.http.request({
      method: 'GET',
      path: `/channels/${seg(channelId)}/incoming-hooks/${seg(hookId)}`,
      options,
    });
  }

  /** `PATCH /v1/channels/{id}/incoming-hooks/{hookId}`: `name` and `mapping` (the URL stays the same). */
  update(channelId: string, hookId: string, body: IncomingHookPatch, options?: RequestOptions): Promise<IncomingHook> {
    return this.http.request({
      method: 'PATCH',
      path: `/channels/${seg(channelId)}/incoming-hooks/${seg(hookId)}`,
      body,
      options,
    });
  }

  /** `DELETE /v1/channels/{id}/incoming-hooks/{hookId}`: its URL answers 404 at once. */
  async delete(channelId: string, hookId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({
      method: 'DELETE',
      path: `/channels/${seg(channelId)}/incoming-hooks/${seg(hookId)}`,
      options,
    });
  }

  /**
   * `GET …/incoming-hooks/{hookId}/deliveries`: the hook's last 50 posts past its door, newest first, failed ones
   * included (posts refused at the door are in `refusals`).
   */
  deliveries(channelId: string, hookId: string, options?: RequestOptions): Promise<Page<IncomingHookDelivery>> {
    return this.http.request({
      method: 'GET',
      path: `/channels/${seg(channelId)}/incoming-hooks/${seg(hookId)}/deliveries`,
      options,
    });
  }

  /**
   * `GET …/incoming-hooks/{hookId}/refusals`: posts refused at the hook's door (rate limited, bad signature,
   * replayed), one line per second with a `count`, newest first, the last 50 seconds that had any.
   */
  refusals(channelId: string, hookId: string, options?: RequestOptions): Promise<Page<IncomingHookRefusal>> {
    return this.http.request({
      method: 'GET',
      path: `/channels/${seg(channelId)}/incoming-hooks/${seg(hookId)}/refusals`,
      options,
    });
  }
}

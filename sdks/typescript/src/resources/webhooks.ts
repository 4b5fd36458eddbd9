import type { RequestOptions } from '../http.js';
import { paginate } from '../pagination.js';
import type {
  Page,
  PageParams,
  Webhook,
  WebhookAttempt,
  WebhookCreated,
  WebhookIn,
  WebhookPing,
  WebhookSecretRolled,
  WebhookSecretRollIn,
} from '../types.js';
import { Resource, seg } from './base.js';

/** Outgoing webhook subscriptions (docs/webhooks.md). Verify deliveries with `verifyWebhook`. */
export class Webhooks extends Resource {
  /** `POST /v1/webhooks`: the answer's `secret` is shown only here (a create: sends an Idempotency-Key). */
  create(body: WebhookIn, options?: RequestOptions): Promise<WebhookCreated> {
    return this.http.request({ method: 'POST', path: '/webhooks', body, idempotent: true, options });
  }

  /** `GET /v1/webhooks`: one page. */
  list(params: PageParams = {}, options?: RequestOptions): Promise<Page<Webhook>> {
    return this.http.request({ method: 'GET', path: '/webhooks', query: { ...params }, options });
  }

  listAll(params: PageParams = {}, options?: RequestOptions): AsyncIterableIterator<Webhook> {
    return paginate((cursor) => this.list({ ...params, cursor }, options), params.cursor);
  }

  /** `GET /v1/webhooks/{webhookId}` */
  get(webhookId: string, options?: RequestOptions): Promise<Webhook> {
    return this.http.request({ method: 'GET', path: `/webhooks/${seg(webhookId)}`, options });
  }

  /** `DELETE /v1/webhooks/{webhookId}` */
  async delete(webhookId: string, options?: RequestOptions): Promise<void> {
    await this.http.request({ method: 'DELETE', path: `/webhooks/${seg(webhookId)}`, options });
  }

  /**
   * `POST /v1/webhooks/{webhookId}/secret`: a new signing secret, shown only in this answer. The old one keeps
   * signing deliveries beside it for `overlapSeconds` (default a day; 0 stops it at once), so receivers can move to
   * the new one without missing a delivery. Sends an Idempotency-Key: a retry answers the same new secret.
   */
  rollSecret(
    webhookId: string,
    body: WebhookSecretRollIn = {},
    options?: RequestOptions,
  ): Promise<WebhookSecretRolled> {
    return this.http.request({
      method: 'POST',
      path: `/webhooks/${seg(webhookId)}/secret`,
      body,
      idempotent: true,
      options,
    });
  }

  /** `GET /v1/webhooks/{webhookId}/deliveries`: one page of attempts and drops. */
  deliveries(webhookId: string, params: PageParams = {}, options?: RequestOptions): Promise<Page<WebhookAttempt>> {
    return this.http.request({
      method: 'GET',
      path: `/webhooks/${seg(webhookId)}/deliveries`,
      query: { ...params },
      options,
    });
  }

  deliveriesAll(
    webhookId: string,
    params: PageParams = {},
    options?: RequestOptions,
  ): AsyncIterableIterator<WebhookAttempt> {
    return paginate((cursor) => this.deliveries(webhookId, { ...params, cursor }, options), params.cursor);
  }

  /** `POST /v1/webhooks/{webhookId}/ping`: sends a signed `webhook.ping` now and answers how it went. */
  ping(webhookId: string, options?: RequestOptions): Promise<WebhookPing> {
    return this.http.request({ method: 'POST', path: `/webhooks/${seg(webhookId)}/ping`, idempotent: true, options });
  }
}

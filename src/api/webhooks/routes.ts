/**
 * Outgoing webhook subscriptions (docs/webhooks.md): declarations over operations/webhooks.ts, and the OpenAPI
 * description of what onair POSTs to an endpoint.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookAttempts,
  listWebhooks,
  pingWebhook,
  rollWebhookSecret,
  SecretRollIn,
  SubscriptionIn,
} from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeBinder } from '../route-spec.js';
import { ListQuery, listOf } from '../schemas/common.js';
import {
  AttemptOut,
  DeliveryBody,
  DeliveryHeaders,
  PingOut,
  SecretRolled,
  SubscriptionCreated,
  SubscriptionOut,
  WebhookParam as params,
} from './schemas.js';

export function webhookRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openAPIRegistry.registerWebhook({
    method: 'post',
    path: 'delivery',
    tags: ['Webhooks'],
    summary: "What onair POSTs to a subscription's URL: one event, signed",
    request: { headers: DeliveryHeaders, body: { content: { 'application/json': { schema: DeliveryBody } } } },
    responses: { 200: { description: 'Any 2xx within 10 s accepts it; anything else is retried (+3 s, +6 s).' } },
  });
  const route = routeBinder(app, deps.runner, ['Webhooks']);
  const one = '/webhooks/{webhookId}';
  route(createWebhook, 'post /webhooks', {
    summary: 'Subscribe an https endpoint to channel events (the signing secret is shown once)',
    body: SubscriptionIn,
    ok: [201, 'Created; `secret` appears only here', SubscriptionCreated],
  });
  route(listWebhooks, 'get /webhooks', {
    summary: 'List webhook subscriptions (never their secrets)',
    query: ListQuery,
    ok: [200, 'In creation order', listOf(SubscriptionOut, 'WebhookList')],
  });
  route(getWebhook, `get ${one}`, {
    summary: 'Read a webhook subscription',
    params,
    ok: [200, 'The subscription', SubscriptionOut],
  });
  route(deleteWebhook, `delete ${one}`, {
    summary: 'Delete a webhook subscription, its pending deliveries and its log',
    params,
    ok: [204, 'Deleted'],
  });
  route(rollWebhookSecret, `post ${one}/secret`, {
    summary: 'Roll the signing secret: a new one, shown once; the old one keeps signing beside it for a while',
    params,
    body: SecretRollIn,
    optionalBody: true,
    ok: [200, 'Rolled; `secret` appears only here', SecretRolled],
  });
  route(listWebhookAttempts, `get ${one}/deliveries`, {
    summary: "A subscription's delivery log: every attempt and every drop, oldest first",
    params,
    query: ListQuery,
    ok: [200, 'Attempts in order', listOf(AttemptOut, 'WebhookAttemptList')],
  });
  route(pingWebhook, `post ${one}/ping`, {
    summary: 'Send a signed webhook.ping now (does not count towards disabling)',
    params,
    ok: [200, "The endpoint's answer", PingOut],
    answer: (r) => ({ ok: r.ok, status: r.status, durationMs: r.durationMs, error: r.error }),
  });
  return app;
}

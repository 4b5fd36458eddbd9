/**
 * Outgoing webhook subscriptions (docs/webhooks.md): declarations over the operations in operations/webhooks.ts, and
 * the OpenAPI description of what onair POSTs to an endpoint.
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
import { operationBinder } from '../operation-route.js';
import { json, ListQuery, listOf } from '../schemas/common.js';
import {
  AttemptOut,
  DeliveryBody,
  DeliveryHeaders,
  PingOut,
  SecretRolled,
  SubscriptionCreated,
  SubscriptionOut,
  WebhookParam,
} from './schemas.js';

export function webhookRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openAPIRegistry.registerWebhook({
    method: 'post',
    path: 'delivery',
    tags: ['Webhooks'],
    summary: "What onair POSTs to a subscription's URL: one event, signed",
    request: {
      headers: DeliveryHeaders,
      body: { content: { 'application/json': { schema: DeliveryBody } } },
    },
    responses: {
      200: { description: 'Any 2xx within 10 s accepts it; anything else is retried (+3 s, +6 s).' },
    },
  });
  const tags = ['Webhooks'];
  const bind = operationBinder(app, deps.runner);
  const one = '/webhooks/{webhookId}';

  bind(createWebhook, {
    method: 'post',
    path: '/webhooks',
    status: 201,
    tags,
    summary: 'Subscribe an https endpoint to channel events (the signing secret is shown once)',
    request: { body: { required: true, ...json(SubscriptionIn) } },
    responses: { 201: { description: 'Created; `secret` appears only here', ...json(SubscriptionCreated) } },
  });
  bind(listWebhooks, {
    method: 'get',
    path: '/webhooks',
    tags,
    summary: 'List webhook subscriptions (never their secrets)',
    request: { query: ListQuery },
    responses: { 200: { description: 'In creation order', ...json(listOf(SubscriptionOut, 'WebhookList')) } },
  });
  bind(getWebhook, {
    method: 'get',
    path: one,
    tags,
    summary: 'Read a webhook subscription',
    request: { params: WebhookParam },
    responses: { 200: { description: 'The subscription', ...json(SubscriptionOut) } },
  });
  bind(deleteWebhook, {
    method: 'delete',
    path: one,
    status: 204,
    tags,
    summary: 'Delete a webhook subscription, its pending deliveries and its log',
    request: { params: WebhookParam },
    responses: { 204: { description: 'Deleted' } },
  });
  bind(rollWebhookSecret, {
    method: 'post',
    path: `${one}/secret`,
    tags,
    summary: 'Roll the signing secret: a new one, shown once; the old one keeps signing beside it for a while',
    request: { params: WebhookParam, body: { required: false, ...json(SecretRollIn) } },
    responses: { 200: { description: 'Rolled; `secret` appears only here', ...json(SecretRolled) } },
  });
  bind(listWebhookAttempts, {
    method: 'get',
    path: `${one}/deliveries`,
    tags,
    summary: "A subscription's delivery log: every attempt and every drop, oldest first",
    request: { params: WebhookParam, query: ListQuery },
    responses: { 200: { description: 'Attempts in order', ...json(listOf(AttemptOut, 'WebhookAttemptList')) } },
  });
  bind(pingWebhook, {
    method: 'post',
    path: `${one}/ping`,
    tags,
    summary: 'Send a signed webhook.ping now (does not count towards disabling)',
    request: { params: WebhookParam },
    responses: { 200: { description: "The endpoint's answer", ...json(PingOut) } },
    answer: (r) => ({ ok: r.ok, status: r.status, durationMs: r.durationMs, error: r.error }),
  });
  return app;
}

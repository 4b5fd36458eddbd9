/**
 * Outgoing webhook subscriptions (docs/webhooks.md): the routes parse and answer; webhooks/subscriptions.ts
 * does the work, so the dashboard and any later entry point behave the same.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeDefiner } from '../route.js';
import { json, ListQuery, listOf, page } from '../schemas/common.js';
import {
  AttemptOut,
  DeliveryBody,
  DeliveryHeaders,
  PingOut,
  SecretRollIn,
  SecretRolled,
  SubscriptionCreated,
  SubscriptionIn,
  SubscriptionOut,
  view,
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
  const route = routeDefiner(deps);
  const service = deps.webhooks;
  const tags = ['Webhooks'];

  app.openapi(
    route(
      { permission: 'webhooks:manage', bucket: 'creates' },
      {
        method: 'post',
        path: '/webhooks',
        tags,
        summary: 'Subscribe an https endpoint to channel events (the signing secret is shown once)',
        request: { body: { required: true, ...json(SubscriptionIn) } },
        responses: { 201: { description: 'Created; `secret` appears only here', ...json(SubscriptionCreated) } },
      },
    ),
    async (c) => {
      const { record, secret } = await service.create(c.get('principal'), c.req.valid('json'));
      return c.json({ ...view(record), secret }, 201);
    },
  );

  app.openapi(
    route(
      { permission: 'webhooks:manage', bucket: 'reads' },
      {
        method: 'get',
        path: '/webhooks',
        tags,
        summary: 'List webhook subscriptions (never their secrets)',
        request: { query: ListQuery },
        responses: { 200: { description: 'In creation order', ...json(listOf(SubscriptionOut, 'WebhookList')) } },
      },
    ),
    async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const found = await service.list(c.get('principal'), { limit, after: cursor });
      return c.json(page(found.map(view), limit), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'webhooks:manage', bucket: 'reads' },
      {
        method: 'get',
        path: '/webhooks/{webhookId}',
        tags,
        summary: 'Read a webhook subscription',
        request: { params: WebhookParam },
        responses: { 200: { description: 'The subscription', ...json(SubscriptionOut) } },
      },
    ),
    async (c) => c.json(view(await service.get(c.get('principal'), c.req.valid('param').webhookId)), 200),
  );

  app.openapi(
    route(
      { permission: 'webhooks:manage', bucket: 'creates' },
      {
        method: 'delete',
        path: '/webhooks/{webhookId}',
        tags,
        summary: 'Delete a webhook subscription, its pending deliveries and its log',
        request: { params: WebhookParam },
        responses: { 204: { description: 'Deleted' } },
      },
    ),
    async (c) => {
      await service.remove(c.get('principal'), c.req.valid('param').webhookId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    route(
      { permission: 'webhooks:manage', bucket: 'creates' },
      {
        method: 'post',
        path: '/webhooks/{webhookId}/secret',
        tags,
        summary: 'Roll the signing secret: a new one, shown once; the old one keeps signing beside it for a while',
        request: { params: WebhookParam, body: { required: false, ...json(SecretRollIn) } },
        responses: { 200: { description: 'Rolled; `secret` appears only here', ...json(SecretRolled) } },
      },
    ),
    async (c) => {
      const overlap = (c.req.valid('json') as SecretRollIn | undefined)?.overlapSeconds;
      const id = c.req.valid('param').webhookId;
      const { record, secret } = await service.rollSecret(c.get('principal'), id, overlap);
      return c.json({ ...view(record), secret }, 200);
    },
  );

  app.openapi(
    route(
      { permission: 'webhooks:manage', bucket: 'reads' },
      {
        method: 'get',
        path: '/webhooks/{webhookId}/deliveries',
        tags,
        summary: "A subscription's delivery log: every attempt and every drop, oldest first",
        request: { params: WebhookParam, query: ListQuery },
        responses: { 200: { description: 'Attempts in order', ...json(listOf(AttemptOut, 'WebhookAttemptList')) } },
      },
    ),
    async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const found = await service.attempts(c.get('principal'), c.req.valid('param').webhookId, {
        limit,
        after: cursor,
      });
      const data = found.attempts.map(({ subscriptionId: _, ...rest }) => rest);
      return c.json({ data, nextCursor: found.nextCursor }, 200);
    },
  );

  app.openapi(
    route(
      { permission: 'webhooks:manage', bucket: 'creates' },
      {
        method: 'post',
        path: '/webhooks/{webhookId}/ping',
        tags,
        summary: 'Send a signed webhook.ping now (does not count towards disabling)',
        request: { params: WebhookParam },
        responses: { 200: { description: "The endpoint's answer", ...json(PingOut) } },
      },
    ),
    async (c) => {
      const r = await service.ping(c.get('principal'), c.req.valid('param').webhookId);
      return c.json({ ok: r.ok, status: r.status, durationMs: r.durationMs, error: r.error }, 200);
    },
  );

  return app;
}

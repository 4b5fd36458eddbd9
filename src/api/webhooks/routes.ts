/**
 * Outgoing webhook subscriptions (docs/webhooks.md): the routes parse and answer; webhooks/subscriptions.ts
 * does the work, so the dashboard and any later entry point behave the same.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { ENGINE_EVENT_TYPES } from '../../engine/index.js';
import type { SubscriptionRecord } from '../../store/webhook-store.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeDefiner } from '../route.js';
import { json, ListQuery, listOf, page } from '../schemas/common.js';

const SubscriptionIn = z
  .strictObject({
    url: z.string().min(1).max(2000).openapi({ example: 'https://scores.example.com/hooks' }),
    events: z
      .array(z.enum(ENGINE_EVENT_TYPES))
      .max(ENGINE_EVENT_TYPES.length * 2)
      .optional()
      .openapi({ description: 'Empty or absent: every event type, including types added later.' }),
    channelId: z.string().min(1).max(100).optional().openapi({ description: "Only this channel's events." }),
    description: z.string().trim().max(500).optional(),
  })
  .openapi('WebhookIn');

const LastErrorOut = z.object({ at: z.string(), message: z.string(), status: z.number().int().nullable() });

const SubscriptionOut = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    channelId: z.string().nullable(),
    description: z.string().nullable(),
    status: z.enum(['enabled', 'disabled']),
    consecutiveFailures: z.number().int(),
    lastError: LastErrorOut.nullable(),
    disabledAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('Webhook');
const SubscriptionCreated = SubscriptionOut.extend({
  secret: z.string().openapi({ description: 'The signing secret (`whsec_…`), shown only in this response.' }),
}).openapi('WebhookCreated');

const AttemptOut = z
  .object({
    eventId: z.string(),
    type: z.string(),
    attempt: z.number().int(),
    outcome: z.enum(['succeeded', 'failed', 'dropped']),
    status: z.number().int().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().nullable(),
    at: z.string(),
  })
  .openapi('WebhookAttempt');

const PingOut = z
  .object({
    ok: z.boolean(),
    status: z.number().int().nullable(),
    durationMs: z.number(),
    error: z.string().nullable(),
  })
  .openapi('WebhookPing');

const WebhookParam = z.object({
  webhookId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'webhookId', in: 'path' } }),
});

function view(s: SubscriptionRecord) {
  const { id, url, events, channelId, description, status, consecutiveFailures, lastError, disabledAt, createdAt } = s;
  return { id, url, events, channelId, description, status, consecutiveFailures, lastError, disabledAt, createdAt };
}

/** What onair POSTs to a subscription's URL (docs/webhooks.md): the event log's envelope, or a ping. */
const DeliveryBody = z
  .object({
    id: z.string().openapi({ description: '`evt_…`: the same as `X-Service-Delivery`, identical across retries.' }),
    type: z.enum([...ENGINE_EVENT_TYPES, 'webhook.ping']),
    orgId: z.string(),
    channelId: z
      .string()
      .nullable()
      .openapi({ description: "A ping carries the subscription's channel, or null when it has none." }),
    createdAt: z.string(),
    data: z.record(z.string(), z.unknown()).openapi({ description: 'Depends on the type (docs/api.md, "Events").' }),
  })
  .openapi('WebhookDelivery');

const DeliveryHeaders = z.object({
  'x-service-event': z.string().openapi({ description: 'The event type.' }),
  'x-service-delivery': z.string().openapi({ description: 'The event id: deduplicate on it.' }),
  'x-service-timestamp': z.string().openapi({ description: 'Unix seconds of this attempt; part of the signature.' }),
  'x-service-signature': z.string().openapi({
    description: '`v1=` + lowercase hex HMAC-SHA256 of `timestamp + "." + raw body`, keyed with the secret.',
  }),
});

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

/**
 * The schemas of the webhook routes (docs/webhooks.md): what a subscription is in and out, the delivery log, a
 * ping's answer, a secret roll, and what onair POSTs to an endpoint (an OpenAPI webhook).
 */
import { z } from '@hono/zod-openapi';
import { ENGINE_EVENT_TYPES } from '../../engine/index.js';
import type { SubscriptionRecord } from '../../store/webhook-store.js';
import { DEFAULT_SECRET_OVERLAP_S } from '../../webhooks/subscriptions.js';

/** The longest a rolled-over secret may keep signing: a week. */
const MAX_SECRET_OVERLAP_S = 7 * 24 * 3600;

export const SubscriptionIn = z
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

export const SubscriptionOut = z
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
    previousSecretExpiresAt: z.string().nullable().openapi({
      description:
        'After a secret roll: until when the secret it replaced still signs deliveries (beside the new one); null when none does.',
    }),
    createdAt: z.string(),
  })
  .openapi('Webhook');
export const SubscriptionCreated = SubscriptionOut.extend({
  secret: z.string().openapi({ description: 'The signing secret (`whsec_…`), shown only in this response.' }),
}).openapi('WebhookCreated');

export const SecretRollIn = z
  .strictObject({
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_SECRET_OVERLAP_S)
      .optional()
      .openapi({
        description: `How long the old secret keeps signing deliveries beside the new one, in seconds (default ${DEFAULT_SECRET_OVERLAP_S}, a day; 0: it stops at once).`,
      }),
  })
  .openapi('WebhookSecretRollIn');
export type SecretRollIn = z.infer<typeof SecretRollIn>;
export const SecretRolled = SubscriptionOut.extend({
  secret: z.string().openapi({ description: 'The new signing secret (`whsec_…`), shown only in this response.' }),
}).openapi('WebhookSecretRolled');

export const AttemptOut = z
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

export const PingOut = z
  .object({
    ok: z.boolean(),
    status: z.number().int().nullable(),
    durationMs: z.number(),
    error: z.string().nullable(),
  })
  .openapi('WebhookPing');

export const WebhookParam = z.object({
  webhookId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'webhookId', in: 'path' } }),
});

export function view(s: SubscriptionRecord) {
  const { id, url, events, channelId, description, status, consecutiveFailures, lastError, disabledAt, createdAt } = s;
  const previous = s.previousSecret;
  const previousSecretExpiresAt = previous && Date.parse(previous.expiresAt) > Date.now() ? previous.expiresAt : null;
  return {
    id,
    url,
    events,
    channelId,
    description,
    status,
    consecutiveFailures,
    lastError,
    disabledAt,
    previousSecretExpiresAt,
    createdAt,
  };
}

/** What onair POSTs to a subscription's URL (docs/webhooks.md): the event log's envelope, or a ping. */
export const DeliveryBody = z
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

export const DeliveryHeaders = z.object({
  'x-service-event': z.string().openapi({ description: 'The event type.' }),
  'x-service-delivery': z.string().openapi({ description: 'The event id: deduplicate on it.' }),
  'x-service-timestamp': z.string().openapi({ description: 'Unix seconds of this attempt; part of the signature.' }),
  'x-service-signature': z.string().openapi({
    description:
      '`v1=` + lowercase hex HMAC-SHA256 of `timestamp + "." + raw body`, keyed with the secret. After a secret roll, during the overlap: two such signatures separated by a space (the new secret\'s first); one matching is enough.',
  }),
});

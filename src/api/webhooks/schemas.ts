/**
 * What the webhook routes answer, for the OpenAPI document (docs/webhooks.md): a subscription, the delivery log, a
 * ping's answer, a secret roll, and what onair POSTs to an endpoint (an OpenAPI webhook). Inputs are the operations'.
 */
import { z } from '@hono/zod-openapi';
import { ENGINE_EVENT_TYPES } from '../../engine/index.js';
import { pathParam } from '../schemas/common.js';

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

export const WebhookParam = z.object({ webhookId: pathParam('webhookId') });

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

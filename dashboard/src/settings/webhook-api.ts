/** Outgoing webhook subscriptions as the API answers them (docs/webhooks.md, "Subscribing"). */
import { api } from '../api.js';
import type { ApiSchemas } from '../api-types.js';

export type Webhook = ApiSchemas['Webhook'];

/** `POST …/secret` (docs/webhooks.md, "Rolling the secret"): the new secret, once; the old one for a day more. */
export function rollSecret(path: string): Promise<ApiSchemas['WebhookSecretRolled']> {
  return api<ApiSchemas['WebhookSecretRolled']>('POST', `${path}/secret`);
}

export const EVENT_TYPES = [
  'channel.played',
  'channel.scene_loaded',
  'channel.trigger_fired',
  'channel.bind_updated',
  'channel.cleared',
];

/** The body that subscribes `sub`'s endpoint again: same URL, events, channel and description. */
export function subscriptionBody(sub: Pick<Webhook, 'url' | 'events' | 'channelId' | 'description'>) {
  return {
    url: sub.url,
    events: sub.events,
    ...(sub.channelId ? { channelId: sub.channelId } : {}),
    ...(sub.description ? { description: sub.description } : {}),
  };
}

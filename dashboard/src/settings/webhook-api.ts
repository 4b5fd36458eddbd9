/** Outgoing webhook subscriptions as the API answers them (docs/webhooks.md, "Subscribing"). */
import { api } from '../api.js';

export interface Subscription {
  id: string;
  url: string;
  events: string[];
  channelId: string | null;
  description: string | null;
  status: 'enabled' | 'disabled';
  consecutiveFailures: number;
  lastError: { at: string; message: string; status: number | null } | null;
  disabledAt: string | null;
  /** After a secret roll: until when the old secret still signs deliveries. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
}
export type CreatedSubscription = Subscription & { secret: string };

/** `POST …/secret` (docs/webhooks.md, "Rolling the secret"): the new secret, once; the old one for a day more. */
export function rollSecret(path: string): Promise<CreatedSubscription> {
  return api<CreatedSubscription>('POST', `${path}/secret`);
}

export const EVENT_TYPES = [
  'channel.played',
  'channel.scene_loaded',
  'channel.trigger_fired',
  'channel.bind_updated',
  'channel.cleared',
];

/** The body that subscribes `sub`'s endpoint again: same URL, events, channel and description. */
export function subscriptionBody(sub: Pick<Subscription, 'url' | 'events' | 'channelId' | 'description'>) {
  return {
    url: sub.url,
    events: sub.events,
    ...(sub.channelId ? { channelId: sub.channelId } : {}),
    ...(sub.description ? { description: sub.description } : {}),
  };
}

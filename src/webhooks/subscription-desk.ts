/**
 * What the webhook operations (operations/webhooks.ts) need of outgoing webhooks besides storage: the endpoint check
 * a URL passes at save, sealing a new signing secret, the in-memory index of enabled subscriptions that the
 * dispatcher matches events against (kept in step with every write), and a signed ping sent now.
 */
import { AppError } from '../errors.js';
import type { SubscriptionRecord } from '../store/webhook-store.js';
import { checkEndpoint, EndpointRefused, type Resolve } from './endpoint-guard/index.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { AttemptResult, AttemptTarget } from './send-attempt.js';
import { openSecrets, type SubscriptionIndex } from './subscription-index.js';

export interface SubscriptionDesk {
  /** The URL as it will be called, or 422 endpoint_refused with the reason. */
  checkUrl(raw: string): Promise<string>;
  /** A signing secret sealed for the subscription `id` (only the subscription it was sealed for opens it). */
  seal(secret: string, id: string): string;
  /** After a write: the subscription as stored now (enabled ones are matched against events, others dropped). */
  stored(record: SubscriptionRecord): void;
  /** After a delete. */
  deleted(id: string): void;
  /** A signed delivery of `body` to the subscription now (both secrets during an overlap); its address checked. */
  ping(record: SubscriptionRecord, body: Buffer, eventId: string): Promise<AttemptResult>;
}

export interface SubscriptionDeskDeps {
  box: SecretBox;
  index: SubscriptionIndex;
  allowPrivate: boolean;
  resolve?: Resolve | undefined;
  send: (target: AttemptTarget, body: Buffer, eventId: string) => Promise<AttemptResult>;
}

export function createSubscriptionDesk(deps: SubscriptionDeskDeps): SubscriptionDesk {
  return {
    async checkUrl(raw) {
      try {
        return (await checkEndpoint(raw, { allowPrivate: deps.allowPrivate, resolve: deps.resolve })).href;
      } catch (err) {
        if (!(err instanceof EndpointRefused)) throw err;
        throw new AppError('endpoint_refused', `This endpoint is refused: ${err.reason}.`, {
          errors: [{ path: 'url', message: err.reason }],
          extra: { reason: err.reason },
        });
      }
    },
    seal: (secret, id) => deps.box.seal(secret, id),
    stored: (record) => deps.index.put(record),
    deleted: (id) => deps.index.remove(id),
    ping: (record, body, eventId) => deps.send({ url: record.url, ...openSecrets(deps.box, record) }, body, eventId),
  };
}

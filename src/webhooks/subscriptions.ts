/**
 * Outgoing webhook subscriptions as operations (docs/webhooks.md): create (the secret is shown once), list,
 * read, delete, roll the secret (the new one shown once), read the delivery log, ping. Every entry point calls
 * these; each checks the permission and the caller's channel lock, writes storage, then keeps the in-memory index
 * in step.
 */
import { authorize, type Principal } from '../auth/permissions.js';
import type { Engine } from '../engine/index.js';
import { AppError } from '../errors.js';
import { assertRoom } from '../limits/resource-limits.js';
import { newId } from '../ids.js';
import type { AttemptRecord, SubscriptionRecord, WebhookStore } from '../store/webhook-store.js';
import { checkEndpoint, EndpointRefused, type Resolve } from './endpoint-guard/index.js';
import type { AttemptResult } from './send-attempt.js';
import type { SecretBox } from './secret-box.js';
import { newSigningSecret } from './signature.js';
import { openSecrets, type SubscriptionIndex } from './subscription-index.js';
import type { AttemptTarget } from './send-attempt.js';

export interface NewSubscription {
  url: string;
  events?: string[] | undefined;
  channelId?: string | undefined;
  description?: string | undefined;
}

export interface WebhookServiceDeps {
  store: WebhookStore;
  engine: Engine;
  box: SecretBox;
  index: SubscriptionIndex;
  allowPrivate: boolean;
  resolve?: Resolve | undefined;
  /** Sends a signed `webhook.ping` now. */
  ping: (target: AttemptTarget, body: Buffer, eventId: string) => Promise<AttemptResult>;
  now?: () => number;
  /** Subscriptions per workspace (422 limit_reached beyond). */
  maxSubscriptions: number;
}

/** How long a rolled-over secret keeps signing deliveries unless the caller says otherwise: a day. */
export const DEFAULT_SECRET_OVERLAP_S = 24 * 3600;

export function createWebhookService(deps: WebhookServiceDeps) {
  const now = deps.now ?? Date.now;

  /** A subscription the caller may manage, or 404 (another workspace, outside its lock, or gone). */
  const find = async (principal: Principal, id: string): Promise<SubscriptionRecord> => {
    const s = await deps.store.getSubscription(id);
    if (!s || !visibleTo(principal, s)) throw new AppError('not_found', `Webhook ${id} does not exist.`);
    authorize(principal, 'webhooks:manage', { orgId: s.orgId });
    return s;
  };

  return {
    async create(principal: Principal, input: NewSubscription) {
      authorize(principal, 'webhooks:manage', { orgId: principal.orgId });
      checkChannel(deps.engine, principal, input.channelId);
      const url = await checkUrl(input.url, deps);
      assertRoom(
        await deps.store.countSubscriptions(principal.orgId),
        deps.maxSubscriptions,
        'A workspace has at most {limit} webhook subscriptions',
        'ONAIR_LIMIT_WEBHOOKS_PER_WORKSPACE',
      );
      const id = newId('wh');
      const secret = newSigningSecret();
      const record: SubscriptionRecord = {
        id,
        orgId: principal.orgId,
        url,
        events: [...new Set(input.events ?? [])],
        channelId: input.channelId ?? null,
        description: input.description ?? null,
        sealedSecret: deps.box.seal(secret, id),
        previousSecret: null,
        status: 'enabled',
        consecutiveFailures: 0,
        lastError: null,
        disabledAt: null,
        createdAt: new Date(now()).toISOString(),
      };
      await deps.store.insertSubscription(record);
      deps.index.add(record);
      return { record, secret };
    },

    async list(principal: Principal, page: { limit: number; after?: string | undefined }) {
      authorize(principal, 'webhooks:manage', { orgId: principal.orgId });
      const lock = principal.kind !== 'output' && principal.channelIds ? [...principal.channelIds] : undefined;
      return deps.store.listSubscriptions(principal.orgId, { ...page, limit: page.limit + 1, onlyChannelIds: lock });
    },

    get: find,

    async remove(principal: Principal, id: string): Promise<void> {
      await find(principal, id);
      await deps.store.deleteSubscription(id);
      deps.index.remove(id);
    },

    /**
     * A new secret, shown once; the one it replaces keeps signing deliveries beside it for `overlapSeconds`
     * (0: stops now). A disabled subscription may be rolled too: its secret is as exposed as an enabled one's.
     */
    async rollSecret(principal: Principal, id: string, overlapSeconds = DEFAULT_SECRET_OVERLAP_S) {
      await find(principal, id);
      const secret = newSigningSecret();
      const expiresAt = overlapSeconds > 0 ? new Date(now() + overlapSeconds * 1000).toISOString() : null;
      const record = await deps.store.rollSecret(id, deps.box.seal(secret, id), expiresAt);
      if (!record) throw new AppError('not_found', `Webhook ${id} does not exist.`);
      deps.index.put(record);
      return { record, secret };
    },

    async attempts(principal: Principal, id: string, page: { limit: number; after?: string | undefined }) {
      await find(principal, id);
      return deps.store.listAttempts(id, page);
    },

    /** A signed `webhook.ping` sent now; logged, but it does not count towards disabling. */
    async ping(principal: Principal, id: string): Promise<AttemptResult> {
      const s = await find(principal, id);
      const eventId = newId('evt');
      const at = new Date(now()).toISOString();
      const body = JSON.stringify({
        id: eventId,
        type: 'webhook.ping',
        orgId: s.orgId,
        channelId: s.channelId,
        createdAt: at,
        data: { webhookId: s.id },
      });
      // The address is checked when the connection is made, as for every delivery.
      const result = await deps.ping({ url: s.url, ...openSecrets(deps.box, s) }, Buffer.from(body), eventId);
      await deps.store.logAttempt(pingLine(s.id, eventId, result, now()));
      return result;
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;

/** A channel-locked caller sees only subscriptions limited to one of its channels. */
function visibleTo(principal: Principal, s: SubscriptionRecord): boolean {
  if (principal.kind === 'output' || s.orgId !== principal.orgId) return false;
  return !principal.channelIds || (s.channelId !== null && principal.channelIds.has(s.channelId));
}

function checkChannel(engine: Engine, principal: Principal, channelId: string | undefined): void {
  if (channelId === undefined) {
    if (principal.kind !== 'output' && principal.channelIds) {
      throw new AppError('forbidden', 'A channel-locked key can only subscribe to one of its channels: set channelId.');
    }
    return;
  }
  const known = engine.has(channelId) && engine.channelRecord(channelId).orgId === principal.orgId;
  const locked = principal.kind !== 'output' && principal.channelIds !== null && !principal.channelIds.has(channelId);
  if (!known || locked) {
    throw new AppError('invalid_request', `Channel ${channelId} does not exist.`, {
      errors: [{ path: 'channelId', message: `unknown channel ${channelId}` }],
    });
  }
}

/** The URL as it will be called, or 422 endpoint_refused with the reason. */
async function checkUrl(raw: string, deps: Pick<WebhookServiceDeps, 'allowPrivate' | 'resolve'>): Promise<string> {
  try {
    return (await checkEndpoint(raw, { allowPrivate: deps.allowPrivate, resolve: deps.resolve })).href;
  } catch (err) {
    if (!(err instanceof EndpointRefused)) throw err;
    throw new AppError('endpoint_refused', `This endpoint is refused: ${err.reason}.`, {
      errors: [{ path: 'url', message: err.reason }],
      extra: { reason: err.reason },
    });
  }
}

function pingLine(subscriptionId: string, eventId: string, r: AttemptResult, at: number): AttemptRecord {
  return {
    subscriptionId,
    eventId,
    type: 'webhook.ping',
    attempt: 1,
    outcome: r.ok ? 'succeeded' : 'failed',
    status: r.status,
    error: r.error,
    durationMs: r.durationMs,
    at: new Date(at).toISOString(),
  };
}

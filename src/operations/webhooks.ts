/**
 * Outgoing webhook subscriptions (docs/webhooks.md): create (the secret is shown once), list, read, delete, roll the
 * secret (the new one shown once), read the delivery log, ping. Each writes storage, then keeps the in-memory index
 * of enabled subscriptions in step (webhooks/subscription-desk.ts).
 */
import { z } from 'zod';
import type { Principal } from '../auth/permissions.js';
import { newSigningSecret } from '../crypto/signature.js';
import { ENGINE_EVENT_TYPES } from '../engine/index.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { assertRoom } from '../limits/resource-limits.js';
import type { AttemptRecord, SubscriptionRecord } from '../store/webhook-store.js';
import type { AttemptResult } from '../webhooks/send-attempt.js';
import type { OperationContext, WorkspaceOperation } from './operation.js';
import { PageQuery, page, ResourceId, type Page } from './paging.js';

/** How long a rolled-over secret keeps signing deliveries unless the caller says otherwise: a day. */
export const DEFAULT_SECRET_OVERLAP_S = 24 * 3600;
/** The longest a rolled-over secret may keep signing: a week. */
const MAX_SECRET_OVERLAP_S = 7 * 24 * 3600;

export const SubscriptionIn = z
  .strictObject({
    url: z.string().min(1).max(2000).meta({ example: 'https://scores.example.com/hooks' }),
    events: z
      .array(z.enum(ENGINE_EVENT_TYPES))
      .max(ENGINE_EVENT_TYPES.length * 2)
      .optional()
      .meta({ description: 'Empty or absent: every event type, including types added later.' }),
    channelId: z.string().min(1).max(100).optional().meta({ description: "Only this channel's events." }),
    description: z.string().trim().max(500).optional(),
  })
  .meta({ id: 'WebhookIn' });

export const SecretRollIn = z
  .strictObject({
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_SECRET_OVERLAP_S)
      .optional()
      .meta({
        description: `How long the old secret keeps signing deliveries beside the new one, in seconds (default ${DEFAULT_SECRET_OVERLAP_S}, a day; 0: it stops at once).`,
      }),
  })
  .meta({ id: 'WebhookSecretRollIn' });

const WebhookRef = z.strictObject({ webhookId: ResourceId });

/** A subscription as the API shows it: never a secret. */
export interface SubscriptionView {
  id: string;
  url: string;
  events: string[];
  channelId: string | null;
  description: string | null;
  status: SubscriptionRecord['status'];
  consecutiveFailures: number;
  lastError: SubscriptionRecord['lastError'];
  disabledAt: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

export function subscriptionView(s: SubscriptionRecord, now = Date.now()): SubscriptionView {
  const { id, url, events, channelId, description, status, consecutiveFailures, lastError, disabledAt, createdAt } = s;
  const previous = s.previousSecret;
  const previousSecretExpiresAt = previous && Date.parse(previous.expiresAt) > now ? previous.expiresAt : null;
  const view = { id, url, events, channelId, description, status, consecutiveFailures, lastError, disabledAt };
  return { ...view, previousSecretExpiresAt, createdAt };
}

const manage = { scope: 'workspace', permission: 'webhooks:manage' } as const;

export const createWebhook: WorkspaceOperation<
  z.infer<typeof SubscriptionIn>,
  SubscriptionView & { secret: string }
> = {
  ...manage,
  name: 'webhooks.create',
  bucket: 'creates',
  input: SubscriptionIn,
  async run({ caller: { principal }, services }, input) {
    checkChannel(services, principal, input.channelId);
    const url = await services.webhooks.checkUrl(input.url);
    assertRoom(
      await services.store.webhooks.countSubscriptions(principal.orgId),
      services.limits.webhooksPerWorkspace,
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
      sealedSecret: services.webhooks.seal(secret, id),
      previousSecret: null,
      status: 'enabled',
      consecutiveFailures: 0,
      lastError: null,
      disabledAt: null,
      createdAt: new Date(services.now()).toISOString(),
    };
    await services.store.webhooks.insertSubscription(record);
    services.webhooks.stored(record);
    return { ...subscriptionView(record, services.now()), secret };
  },
};

export const listWebhooks: WorkspaceOperation<
  { limit: number; cursor?: string | undefined },
  Page<SubscriptionView>
> = {
  ...manage,
  name: 'webhooks.list',
  bucket: 'reads',
  input: z.strictObject(PageQuery),
  async run({ caller: { principal }, services }, { limit, cursor }) {
    const lock = principal.kind !== 'output' && principal.channelIds ? [...principal.channelIds] : undefined;
    const found = await services.store.webhooks.listSubscriptions(principal.orgId, {
      limit: limit + 1,
      after: cursor,
      onlyChannelIds: lock,
    });
    return page(
      found.map((s) => subscriptionView(s, services.now())),
      limit,
    );
  },
};

export const getWebhook: WorkspaceOperation<{ webhookId: string }, SubscriptionView> = {
  ...manage,
  name: 'webhooks.get',
  bucket: 'reads',
  input: WebhookRef,
  async run(ctx, { webhookId }) {
    return subscriptionView(await find(ctx, webhookId), ctx.services.now());
  },
};

export const deleteWebhook: WorkspaceOperation<{ webhookId: string }, void> = {
  ...manage,
  name: 'webhooks.delete',
  bucket: 'creates',
  input: WebhookRef,
  async run(ctx, { webhookId }) {
    await find(ctx, webhookId);
    await ctx.services.store.webhooks.deleteSubscription(webhookId);
    ctx.services.webhooks.deleted(webhookId);
  },
};

/**
 * A new secret, shown once; the one it replaces keeps signing deliveries beside it for `overlapSeconds` (0: stops
 * now). A disabled subscription may be rolled too: its secret is as exposed as an enabled one's.
 */
export const rollWebhookSecret: WorkspaceOperation<
  { webhookId: string; overlapSeconds?: number | undefined },
  SubscriptionView & { secret: string }
> = {
  ...manage,
  name: 'webhooks.roll_secret',
  bucket: 'creates',
  input: SecretRollIn.extend(WebhookRef.shape),
  async run(ctx, { webhookId, overlapSeconds = DEFAULT_SECRET_OVERLAP_S }) {
    const { services } = ctx;
    await find(ctx, webhookId);
    const secret = newSigningSecret();
    const expiresAt = overlapSeconds > 0 ? new Date(services.now() + overlapSeconds * 1000).toISOString() : null;
    const record = await services.store.webhooks.rollSecret(
      webhookId,
      services.webhooks.seal(secret, webhookId),
      expiresAt,
    );
    if (!record) throw notFound(webhookId);
    services.webhooks.stored(record);
    return { ...subscriptionView(record, services.now()), secret };
  },
};

export const listWebhookAttempts: WorkspaceOperation<
  { webhookId: string; limit: number; cursor?: string | undefined },
  Page<Omit<AttemptRecord, 'subscriptionId'>>
> = {
  ...manage,
  name: 'webhooks.attempts',
  bucket: 'reads',
  input: z.strictObject({ webhookId: ResourceId, ...PageQuery }),
  async run(ctx, { webhookId, limit, cursor }) {
    await find(ctx, webhookId);
    const found = await ctx.services.store.webhooks.listAttempts(webhookId, { limit, after: cursor });
    return { data: found.attempts.map(({ subscriptionId: _, ...rest }) => rest), nextCursor: found.nextCursor };
  },
};

/** A signed `webhook.ping` sent now; logged, but it does not count towards disabling. */
export const pingWebhook: WorkspaceOperation<{ webhookId: string }, AttemptResult> = {
  ...manage,
  name: 'webhooks.ping',
  bucket: 'creates',
  input: WebhookRef,
  async run(ctx, { webhookId }) {
    const { services } = ctx;
    const s = await find(ctx, webhookId);
    const eventId = newId('evt');
    const at = new Date(services.now()).toISOString();
    const body = JSON.stringify({
      id: eventId,
      type: 'webhook.ping',
      orgId: s.orgId,
      channelId: s.channelId,
      createdAt: at,
      data: { webhookId: s.id },
    });
    // The address is checked when the connection is made, as for every delivery.
    const result = await services.webhooks.ping(s, Buffer.from(body), eventId);
    await services.store.webhooks.logAttempt(pingLine(s.id, eventId, result, services.now()));
    return result;
  },
};

/** A subscription the caller may manage, or 404 (another workspace, outside its lock, or gone). */
async function find({ caller: { principal }, services }: OperationContext, id: string): Promise<SubscriptionRecord> {
  const s = await services.store.webhooks.getSubscription(id);
  if (!s || !visibleTo(principal, s)) throw notFound(id);
  return s;
}

function notFound(id: string): AppError {
  return new AppError('not_found', `Webhook ${id} does not exist.`);
}

/** A channel-locked caller sees only subscriptions limited to one of its channels. */
function visibleTo(principal: Principal, s: SubscriptionRecord): boolean {
  if (principal.kind === 'output' || s.orgId !== principal.orgId) return false;
  return !principal.channelIds || (s.channelId !== null && principal.channelIds.has(s.channelId));
}

function checkChannel(
  services: OperationContext['services'],
  principal: Principal,
  channelId: string | undefined,
): void {
  const locked = principal.kind !== 'output' && principal.channelIds !== null ? principal.channelIds : null;
  if (channelId === undefined) {
    if (locked) {
      throw new AppError('forbidden', 'A channel-locked key can only subscribe to one of its channels: set channelId.');
    }
    return;
  }
  const { engine } = services;
  const known = engine.has(channelId) && engine.channelRecord(channelId).orgId === principal.orgId;
  if (!known || (locked && !locked.has(channelId))) {
    throw new AppError('invalid_request', `Channel ${channelId} does not exist.`, {
      errors: [{ path: 'channelId', message: `unknown channel ${channelId}` }],
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

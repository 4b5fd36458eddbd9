/**
 * A channel's incoming webhooks (docs/incoming-hooks.md): create (the URL and secret shown once), list, read, rename
 * or remap, delete, and read the logs of posts and refused posts. What a post to a hook's URL does is in
 * ./hook-posts.ts.
 */
import { z } from 'zod';
import { FIELD_PATH_RULE, isFieldPath, NAME_PATTERN, NAME_RULE } from '@onair/protocol';
import { newSigningSecret } from '../crypto/signature.js';
import type { Engine } from '../engine/index.js';
import { AppError } from '../errors.js';
import { newId, randomBase62, sha256Hex } from '../ids.js';
import { assertRoom } from '../limits/resource-limits.js';
import type { HookDeliveryRecord, HookRefusalRecord, IncomingHookRecord } from '../store/incoming-hook-store.js';
import type { ChannelContext, ChannelOperation } from './operation.js';
import { PageQuery, page, ResourceId, type Page } from './paging.js';

export const FieldPath = z.string().refine(isFieldPath, FIELD_PATH_RULE);
export const InputName = z.string().regex(NAME_PATTERN, NAME_RULE);
/** Field path → input name: an incoming hook's mapping, and a data source's (operations/sources.ts). */
export const Mapping = z
  .preprocess(
    refuseProtoKey,
    z.record(FieldPath, InputName).refine((m) => Object.keys(m).length <= 100, 'at most 100 fields'),
  )
  .meta({
    description: 'Field path → input name. Empty: every top-level field sets the input of the same name.',
    example: { home_score: 'scoreA', 'game.clock.running': 'gameClock' },
  });

/**
 * JSON.parse makes `"__proto__"` an own key, which zod's record skips without a word: `{"__proto__": "scoreA"}`
 * would be saved as `{}`, the mapping that maps every field. It is refused here, naming it, like any bad path.
 */
function refuseProtoKey(value: unknown, ctx: { addIssue: (issue: z.core.$ZodRawIssue) => void }): unknown {
  if (typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, '__proto__')) {
    ctx.addIssue({ code: 'custom', path: ['__proto__'], message: FIELD_PATH_RULE, input: value });
  }
  return value;
}

const HookName = z.string().trim().min(1).max(200);
export const HookIn = z
  .strictObject({
    name: HookName.optional(),
    mapping: Mapping.optional(),
    requireSignature: z.boolean().optional(),
  })
  .meta({ id: 'IncomingHookIn' });
export const HookPatch = z
  .strictObject({ name: HookName.optional(), mapping: Mapping.optional() })
  .meta({ id: 'IncomingHookPatch' });
const HookRef = z.strictObject({ hookId: ResourceId });

/** A hook as the API shows it: never its URL token or secret. */
export interface HookView {
  id: string;
  channelId: string;
  name: string;
  mapping: Record<string, string>;
  requireSignature: boolean;
  createdAt: string;
  updatedAt: string;
}

export function hookView(h: IncomingHookRecord): HookView {
  const { id, channelId, name, mapping, requireSignature, createdAt, updatedAt } = h;
  return { id, channelId, name, mapping, requireSignature, createdAt, updatedAt };
}

const write = { scope: 'channel', permission: 'channels:write', bucket: 'creates' } as const;
const read = { scope: 'channel', permission: 'channels:read', bucket: 'reads' } as const;

export const createIncomingHook: ChannelOperation<
  z.infer<typeof HookIn>,
  HookView & { url: string; secret: string | null }
> = {
  ...write,
  name: 'incoming-hooks.create',
  input: HookIn,
  async run({ services, channel }, s) {
    const mapping = s.mapping ?? {};
    checkMapping(services.engine, channel.id, mapping);
    assertRoom(
      (await services.store.incomingHooks.listHooks(channel.id)).length,
      services.limits.incomingHooksPerChannel,
      'A channel has at most {limit} incoming webhooks',
      'ONAIR_LIMIT_INCOMING_HOOKS_PER_CHANNEL',
    );
    const id = newId('hook');
    const token = randomBase62(32);
    const secret = s.requireSignature ? newSigningSecret() : null;
    const at = new Date(services.now()).toISOString();
    const record: IncomingHookRecord = {
      id,
      orgId: channel.orgId,
      channelId: channel.id,
      name: s.name ?? 'Incoming webhook',
      tokenHash: sha256Hex(token),
      mapping,
      requireSignature: s.requireSignature ?? false,
      sealedSecret: secret ? services.incomingHooks.seal(secret, id) : null,
      createdAt: at,
      updatedAt: at,
    };
    await services.store.incomingHooks.insertHook(record);
    return { ...hookView(record), url: `${services.baseUrl()}/v1/hooks/${token}`, secret };
  },
};

/** A channel has few hooks (ONAIR_LIMIT_INCOMING_HOOKS_PER_CHANNEL): they are paged from one read. */
export const listIncomingHooks: ChannelOperation<{ limit: number; cursor?: string | undefined }, Page<HookView>> = {
  ...read,
  name: 'incoming-hooks.list',
  input: z.strictObject(PageQuery),
  async run({ services, channel }, { limit, cursor }) {
    const hooks = await services.store.incomingHooks.listHooks(channel.id);
    const after = hooks.filter((h) => cursor === undefined || h.id > cursor);
    return page(after.slice(0, limit + 1).map(hookView), limit);
  },
};

export const getIncomingHook: ChannelOperation<{ hookId: string }, HookView> = {
  ...read,
  name: 'incoming-hooks.get',
  input: HookRef,
  run: async (ctx, { hookId }) => hookView(await find(ctx, hookId)),
};

export const updateIncomingHook: ChannelOperation<z.infer<typeof HookPatch> & { hookId: string }, HookView> = {
  ...write,
  name: 'incoming-hooks.update',
  input: HookPatch.extend(HookRef.shape),
  async run(ctx, { hookId, name, mapping }) {
    const { services, channel } = ctx;
    await find(ctx, hookId);
    if (mapping) checkMapping(services.engine, channel.id, mapping);
    const updatedAt = new Date(services.now()).toISOString();
    await services.store.incomingHooks.updateHook(hookId, { name, mapping, updatedAt });
    return hookView(await find(ctx, hookId));
  },
};

export const deleteIncomingHook: ChannelOperation<{ hookId: string }, void> = {
  ...write,
  name: 'incoming-hooks.delete',
  input: HookRef,
  async run(ctx, { hookId }) {
    await find(ctx, hookId);
    await ctx.services.store.incomingHooks.deleteHook(hookId);
  },
};

export const listHookPosts: ChannelOperation<{ hookId: string }, Page<HookDeliveryRecord>> = {
  ...read,
  name: 'incoming-hooks.posts',
  input: HookRef,
  async run(ctx, { hookId }) {
    await find(ctx, hookId);
    return { data: await ctx.services.store.incomingHooks.listDeliveries(hookId), nextCursor: null };
  },
};

/** Refused posts, one line per second, newest first. */
export const listHookRefusals: ChannelOperation<{ hookId: string }, Page<HookRefusalRecord>> = {
  ...read,
  name: 'incoming-hooks.refusals',
  input: HookRef,
  async run(ctx, { hookId }) {
    await find(ctx, hookId);
    return { data: await ctx.services.store.incomingHooks.listRefusals(hookId), nextCursor: null };
  },
};

async function find({ services, channel }: ChannelContext, hookId: string): Promise<IncomingHookRecord> {
  const hook = await services.store.incomingHooks.getHook(hookId);
  if (!hook || hook.channelId !== channel.id)
    throw new AppError('not_found', `Incoming webhook ${hookId} does not exist.`);
  return hook;
}

/** Every mapping target must be an input of the channel now (a typo is caught before the game). */
export function checkMapping(engine: Engine, channelId: string, mapping: Record<string, string>): void {
  // Own keys as parsed: a `__proto__` key must be refused, never dropped (an empty mapping maps every field).
  const bad = Reflect.ownKeys(mapping).filter((k) => typeof k !== 'string' || !isFieldPath(k));
  if (bad.length > 0) {
    const errors = bad.map((k) => ({ path: `mapping.${String(k)}`, message: FIELD_PATH_RULE }));
    throw new AppError('invalid_request', `${errors[0]!.path}: ${FIELD_PATH_RULE}`, { errors });
  }
  const registry = engine.registry(channelId);
  const errors = Object.entries(mapping)
    .filter(([, input]) => !registry.has(input))
    .map(([field, input]) => ({
      path: `mapping.${field}`,
      message: `no scene of this channel declares input "${input}"`,
    }));
  if (errors.length > 0) {
    throw new AppError(
      'unknown_input',
      `The mapping names inputs no scene of this channel declares: ${errors.map((e) => e.path).join(', ')}.`,
      { errors, extra: { input: mapping[errors[0]!.path.slice('mapping.'.length)], closest: null } },
    );
  }
}

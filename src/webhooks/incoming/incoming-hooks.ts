/**
 * Incoming webhooks as operations (docs/incoming-hooks.md): a channel's hooks (create, list, read, change the
 * mapping, delete, read the logs) and the hook a URL names. What a post to that URL does is in hook-receiver.ts:
 * it runs as the channel operation applyHookPost under a principal that may only set inputs on the hook's
 * channel, so it is limited and locked like any other caller.
 */
import type { Logger } from 'pino';
import { authorize, type Principal } from '../../auth/permissions.js';
import type { Engine } from '../../engine/index.js';
import { AppError } from '../../errors.js';
import { newId, randomBase62, sha256Hex } from '../../ids.js';
import { admit, admitCustom } from '../../limits/enforce.js';
import { assertRoom } from '../../limits/resource-limits.js';
import type { RateLimiter } from '../../limits/rate-limiter.js';
import type { IncomingHookRecord, IncomingHookStore } from '../../store/incoming-hook-store.js';
import type { SecretBox } from '../secret-box.js';
import { newSigningSecret } from '../signature.js';
import { FIELD_PATH_RULE, isFieldPath } from '@onair/protocol';

import { createHookReceiver, type HookPost } from './hook-receiver.js';

export { LOG_KEEP, type HookAnswer, type HookPost } from './hook-receiver.js';

export interface HookSettings {
  name?: string | undefined;
  mapping?: Record<string, string> | undefined;
  requireSignature?: boolean | undefined;
}

export interface IncomingHooksDeps {
  store: IncomingHookStore;
  engine: Engine;
  limiter: RateLimiter;
  box: SecretBox;
  logger: Logger;
  now?: () => number;
  /** Hooks per channel (422 limit_reached beyond). */
  maxHooksPerChannel: number;
  /** Requests to hook URLs from one client address per second (429 beyond), before the token is looked up. */
  postsPerAddressPerSecond: number;
}
export function createIncomingHooks(deps: IncomingHooksDeps) {
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const receiver = createHookReceiver({ ...deps, now });

  const find = async (
    principal: Principal,
    channelId: string,
    hookId: string,
    permission: 'channels:write' | 'channels:read',
  ) => {
    authorize(principal, permission, { orgId: orgOf(deps.engine, channelId), channelId });
    const hook = await deps.store.getHook(hookId);
    if (!hook || hook.channelId !== channelId)
      throw new AppError('not_found', `Incoming webhook ${hookId} does not exist.`);
    return hook;
  };

  return {
    async create(principal: Principal, channelId: string, s: HookSettings) {
      const orgId = orgOf(deps.engine, channelId);
      authorize(principal, 'channels:write', { orgId, channelId });
      const mapping = s.mapping ?? {};
      checkMapping(deps.engine, channelId, mapping);
      assertRoom(
        (await deps.store.listHooks(channelId)).length,
        deps.maxHooksPerChannel,
        'A channel has at most {limit} incoming webhooks',
        'ONAIR_LIMIT_INCOMING_HOOKS_PER_CHANNEL',
      );
      const id = newId('hook');
      const token = randomBase62(32);
      const secret = s.requireSignature ? newSigningSecret() : null;
      const record: IncomingHookRecord = {
        id,
        orgId,
        channelId,
        name: s.name ?? 'Incoming webhook',
        tokenHash: sha256Hex(token),
        mapping,
        requireSignature: s.requireSignature ?? false,
        sealedSecret: secret ? deps.box.seal(secret, id) : null,
        createdAt: iso(),
        updatedAt: iso(),
      };
      await deps.store.insertHook(record);
      return { record, token, secret };
    },

    async list(principal: Principal, channelId: string) {
      authorize(principal, 'channels:read', { orgId: orgOf(deps.engine, channelId), channelId });
      return deps.store.listHooks(channelId);
    },

    get: (principal: Principal, channelId: string, hookId: string) =>
      find(principal, channelId, hookId, 'channels:read'),

    async update(principal: Principal, channelId: string, hookId: string, s: Omit<HookSettings, 'requireSignature'>) {
      await find(principal, channelId, hookId, 'channels:write');
      if (s.mapping) checkMapping(deps.engine, channelId, s.mapping);
      await deps.store.updateHook(hookId, { name: s.name, mapping: s.mapping, updatedAt: iso() });
      return (await deps.store.getHook(hookId))!;
    },

    async remove(principal: Principal, channelId: string, hookId: string) {
      await find(principal, channelId, hookId, 'channels:write');
      await deps.store.deleteHook(hookId);
    },

    async deliveries(principal: Principal, channelId: string, hookId: string) {
      await find(principal, channelId, hookId, 'channels:read');
      return deps.store.listDeliveries(hookId);
    },

    /** Refused posts, one line per second, newest first. */
    async refusals(principal: Principal, channelId: string, hookId: string) {
      await find(principal, channelId, hookId, 'channels:read');
      return deps.store.listRefusals(hookId);
    },

    /**
     * The hook a URL token names, or 404 (the same for every unknown token). Counted first against the client's
     * address, so that guessing tokens (or flooding one URL) from an address is refused before any lookup.
     */
    async byToken(token: string, client?: string): Promise<IncomingHookRecord> {
      if (client !== undefined) {
        const rule = { limit: deps.postsPerAddressPerSecond, windowMs: 1_000 };
        await admitCustom(
          deps.limiter,
          `hooks:address:${client}`,
          rule,
          'requests to incoming-hook URLs from this address',
        );
      }
      const hook = token.length <= 100 ? await deps.store.findHookByTokenHash(sha256Hex(token)) : undefined;
      if (!hook || !deps.engine.has(hook.channelId)) {
        throw new AppError('not_found', 'No incoming webhook has this address.');
      }
      return hook;
    },

    /** GET on the hook's URL: how to use it, counted against its channel's updates bucket. */
    async describe(hook: IncomingHookRecord) {
      const { headers } = await admit(deps.limiter, 'updates', hook.channelId);
      return { headers, requireSignature: hook.requireSignature };
    },

    receive: (hook: IncomingHookRecord, post: HookPost) => receiver.receive(hook, post),

    /** A server stopping: writes what the refusal logs have counted and not yet written. */
    stop: () => receiver.flush(),
  };
}

export type IncomingHooks = ReturnType<typeof createIncomingHooks>;

function orgOf(engine: Engine, channelId: string): string {
  return engine.has(channelId) ? engine.channelRecord(channelId).orgId : '\u0000missing';
}

/** Every mapping target must be an input of the channel now (a typo is caught before the game). */
function checkMapping(engine: Engine, channelId: string, mapping: Record<string, string>): void {
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
      {
        errors,
        extra: { input: mapping[errors[0]!.path.slice('mapping.'.length)], closest: null },
      },
    );
  }
}

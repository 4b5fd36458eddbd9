/**
 * Incoming webhooks as operations (docs/incoming-hooks.md): a channel's hooks (create, list, read, change the
 * mapping, delete, read the log) and what a post to a hook's URL does. A post is checked (body, signature),
 * mapped, then run as the channel operation applyHookPost under a principal that may only set inputs on the
 * hook's channel, so it is limited and locked like any other caller; every post is logged on the hook.
 */
import crypto from 'node:crypto';
import { authorize, type Principal } from '../../auth/permissions.js';
import type { Engine } from '../../engine/index.js';
import { AppError, toProblem } from '../../errors.js';
import { newId, randomBase62, sha256Hex } from '../../ids.js';
import { admit } from '../../limits/enforce.js';
import { assertRoom } from '../../limits/resource-limits.js';
import type { RateLimiter } from '../../limits/rate-limiter.js';
import { applyHookPost, perform } from '../../operations/index.js';
import type { HookDeliveryRecord, IncomingHookRecord, IncomingHookStore } from '../../store/incoming-hook-store.js';
import type { SecretBox } from '../secret-box.js';
import { newSigningSecret } from '../signature.js';
import { mapPayload } from './hook-mapping.js';

/** Posts each hook keeps in its log. */
export const LOG_KEEP = 50;
const PAYLOAD_CAP = 2048;
const SIGNATURE_TOLERANCE_S = 300;
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

export interface HookSettings {
  name?: string | undefined;
  mapping?: Record<string, string> | undefined;
  requireSignature?: boolean | undefined;
}

export interface HookPost {
  raw: Uint8Array;
  contentType: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
  dryRun: boolean;
}

export interface HookAnswer {
  frame: number | null;
  applied: Record<string, unknown>;
  ignored: string[];
  dryRun?: true;
  headers: Record<string, string>;
}

export interface IncomingHooksDeps {
  store: IncomingHookStore;
  engine: Engine;
  limiter: RateLimiter;
  box: SecretBox;
  now?: () => number;
  /** Hooks per channel (422 limit_reached beyond). */
  maxHooksPerChannel: number;
}

export function createIncomingHooks(deps: IncomingHooksDeps) {
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();

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

    /** The hook a URL token names, or 404 (the same for every unknown token). */
    async byToken(token: string): Promise<IncomingHookRecord> {
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

    /** A post to the hook's URL: checked, mapped, applied (or, dry, only answered), and logged. */
    async receive(hook: IncomingHookRecord, post: HookPost): Promise<HookAnswer> {
      const at = iso();
      const log = (entry: Omit<HookDeliveryRecord, 'at' | 'payload' | 'dryRun'>) =>
        deps.store.logDelivery(hook.id, { ...entry, at, payload: excerpt(post.raw), dryRun: post.dryRun }, LOG_KEEP);
      try {
        const payload = parseBody(post);
        if (hook.requireSignature) verifySignature(hook, post, deps.box, now());
        const mapped = mapPayload(payload, hook.mapping, deps.engine.registry(hook.channelId));
        if (post.dryRun) {
          await log({ status: 200, applied: mapped.applied, ignored: mapped.ignored, error: null });
          return { frame: null, applied: mapped.applied, ignored: mapped.ignored, dryRun: true, headers: {} };
        }
        const principal = hookPrincipal(hook);
        const outcome = await perform(
          applyHookPost,
          deps,
          { principal, source: 'incoming_webhook' },
          hook.channelId,
          mapped,
        );
        await log({ status: 200, applied: outcome.body.applied, ignored: mapped.ignored, error: null });
        return { ...outcome.body, ignored: mapped.ignored, headers: outcome.headers };
      } catch (err) {
        const problem = toProblem(err);
        await log({ status: problem.status, applied: {}, ignored: [], error: `${problem.code}: ${problem.detail}` });
        throw err;
      }
    },
  };
}

export type IncomingHooks = ReturnType<typeof createIncomingHooks>;

function orgOf(engine: Engine, channelId: string): string {
  return engine.has(channelId) ? engine.channelRecord(channelId).orgId : '\u0000missing';
}

/** A hook may set inputs and drive clocks on its own channel, nothing else. */
function hookPrincipal(hook: IncomingHookRecord): Principal {
  return {
    kind: 'key',
    keyId: hook.id,
    orgId: hook.orgId,
    grants: new Set(['inputs:write']),
    channelIds: new Set([hook.channelId]),
  };
}

/** Every mapping target must be an input of the channel now (a typo is caught before the game). */
function checkMapping(engine: Engine, channelId: string, mapping: Record<string, string>): void {
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

function parseBody(post: HookPost): unknown {
  if (!JSON_TYPE.test(post.contentType ?? '')) {
    throw new AppError(
      'unsupported_media_type',
      'Post the fields as JSON with "Content-Type: application/json", for example {"home_score": 2}.',
    );
  }
  if (post.raw.byteLength === 0) throw new AppError('invalid_request', 'The body is empty: post a JSON object.');
  try {
    return JSON.parse(Buffer.from(post.raw).toString('utf8')) as unknown;
  } catch (err) {
    throw new AppError('invalid_request', `Malformed JSON: ${(err as Error).message}`);
  }
}

/** The outgoing deliveries' scheme: v1= hex HMAC-SHA256 of "timestamp.raw body", 300 s tolerance. */
function verifySignature(hook: IncomingHookRecord, post: HookPost, box: SecretBox, nowMs: number): void {
  const bad = (why: string) => new AppError('bad_signature', `${why} See docs/incoming-hooks.md, "Signed posts".`);
  const { timestamp, signature } = post;
  if (!timestamp || !signature) throw bad('This hook needs X-Service-Timestamp and X-Service-Signature.');
  if (!/^\d{1,12}$/.test(timestamp)) throw bad('X-Service-Timestamp must be Unix seconds.');
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_S) {
    throw bad('X-Service-Timestamp is more than 300 seconds from the server clock.');
  }
  const secret = box.open(hook.sealedSecret!, hook.id);
  const mac = crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`).update(post.raw);
  const expected = Buffer.from(`v1=${mac.digest('hex')}`);
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    throw bad('The signature does not match this body and timestamp.');
  }
}

function excerpt(raw: Uint8Array): string {
  if (raw.byteLength <= PAYLOAD_CAP) return Buffer.from(raw).toString('utf8');
  // The cut may fall inside a character: its broken tail is dropped rather than shown as U+FFFD.
  return `${Buffer.from(raw.subarray(0, PAYLOAD_CAP))
    .toString('utf8')
    .replace(/\uFFFD+$/, '')}…`;
}

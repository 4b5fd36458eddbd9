/**
 * What a post to a hook's URL does (docs/incoming-hooks.md, "Posting"). First the door, before the body is read:
 * the post counts against its channel's updates bucket, then a signed hook checks the signature and claims the
 * post's replay keys in the store (so a replay is refused on every node). A post refused at the door goes to the
 * hook's refusal log, folded one line per second. A post past the door is parsed, mapped and run as the channel
 * operation applyHookPost (or, dry, only answered), and logged in the hook's log of posts.
 */
import type { Logger } from 'pino';
import type { Principal } from '../../auth/permissions.js';
import type { Engine } from '../../engine/index.js';
import { AppError, toProblem } from '../../errors.js';
import { admit } from '../../limits/enforce.js';
import type { RateLimiter } from '../../limits/rate-limiter.js';
import { applyHookPost, perform, withHeaders } from '../../operations/index.js';
import type { HookDeliveryRecord, IncomingHookRecord, IncomingHookStore } from '../../store/incoming-hook-store.js';
import type { SecretBox } from '../secret-box.js';
import { mapPayload } from './hook-mapping.js';
import { replayClaims, replayed, unreadableSecret, verifySignature, type SignedParts } from './hook-signature.js';
import { createRefusalLog } from './refusal-log.js';

/** Posts each hook keeps in its log. */
export const LOG_KEEP = 50;
const PAYLOAD_CAP = 2048;
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;
/** Expired replay keys are deleted at most this often (by the node that meets one first). */
const PRUNE_EVERY_MS = 60_000;

export interface HookPost extends SignedParts {
  contentType: string | undefined;
  dryRun: boolean;
}

export interface HookAnswer {
  frame: number | null;
  applied: Record<string, unknown>;
  ignored: string[];
  dryRun?: true;
  headers: Record<string, string>;
}

export interface HookReceiverDeps {
  store: IncomingHookStore;
  engine: Engine;
  limiter: RateLimiter;
  box: SecretBox;
  logger: Logger;
  now: () => number;
}

export function createHookReceiver(deps: HookReceiverDeps) {
  const iso = () => new Date(deps.now()).toISOString();
  const refusals = createRefusalLog({
    store: deps.store,
    now: deps.now,
    onError: (err, hookId) => deps.logger.error({ err, hookId }, 'incoming hook: writing a refusal failed'),
  });
  const unreadable = new Set<string>();
  let prunedAt = 0;

  /** The hook's secret; a secret this server cannot open refuses every post, and is logged once per hook. */
  const secretOf = (hook: IncomingHookRecord): string => {
    try {
      return deps.box.open(hook.sealedSecret ?? '', hook.id);
    } catch {
      if (!unreadable.has(hook.id)) {
        unreadable.add(hook.id);
        deps.logger.warn(
          { hookId: hook.id, channelId: hook.channelId },
          "incoming hook's signing secret cannot be opened (was the database restored without its secret.key?): " +
            'its posts are refused with 401 until the hook is added again',
        );
      }
      throw unreadableSecret();
    }
  };

  const prune = () => {
    if (deps.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = deps.now();
    void deps.store
      .pruneClaims(prunedAt)
      .catch((err: unknown) => deps.logger.error({ err }, 'incoming hooks: pruning replay keys failed'));
  };

  /** Signature and replay: the keys this post now holds. */
  const checkSigned = async (hook: IncomingHookRecord, post: HookPost): Promise<string[]> => {
    verifySignature(secretOf(hook), post, deps.now());
    const claims = replayClaims(post, deps.now());
    const held = await deps.store.claimPost(hook.id, claims, deps.now());
    if (held !== null) throw replayed(held);
    prune();
    return claims.map((c) => c.key);
  };

  /** Counted, then (signed hooks) verified and claimed; a refusal is noted and thrown. */
  const door = async (hook: IncomingHookRecord, post: HookPost) => {
    let headers: Record<string, string> = {};
    try {
      headers = (await admit(deps.limiter, 'updates', hook.channelId)).headers;
      const keys = hook.requireSignature ? await checkSigned(hook, post) : [];
      return { headers, keys };
    } catch (err) {
      const problem = toProblem(err);
      const error = `${problem.code}: ${problem.detail}`;
      await refusals.note(hook.id, { status: problem.status, error, payload: excerpt(post.raw) });
      throw err instanceof AppError ? withHeaders(err, headers) : err;
    }
  };

  const apply = async (hook: IncomingHookRecord, post: HookPost, headers: Record<string, string>) => {
    const payload = parseBody(post);
    const mapped = mapPayload(payload, hook.mapping, deps.engine.registry(hook.channelId));
    if (post.dryRun) return { frame: null, applied: mapped.applied, ignored: mapped.ignored, dryRun: true as const };
    const caller = { principal: hookPrincipal(hook), source: 'incoming_webhook' as const, admitted: headers };
    const outcome = await perform(applyHookPost, deps, caller, hook.channelId, mapped);
    return { ...outcome.body, ignored: mapped.ignored };
  };

  return {
    async receive(hook: IncomingHookRecord, post: HookPost): Promise<HookAnswer> {
      const at = iso();
      const { headers, keys } = await door(hook, post);
      const log = (entry: Omit<HookDeliveryRecord, 'at' | 'payload' | 'dryRun'>) =>
        deps.store.logDelivery(hook.id, { ...entry, at, payload: excerpt(post.raw), dryRun: post.dryRun }, LOG_KEEP);
      try {
        const answer = await apply(hook, post, headers);
        await log({ status: 200, applied: answer.applied, ignored: answer.ignored, error: null });
        return { ...answer, headers };
      } catch (err) {
        // Nothing was applied: the same signed post may come again.
        if (keys.length > 0) {
          await deps.store
            .releasePost(hook.id, keys)
            .catch((e: unknown) => deps.logger.error({ err: e, hookId: hook.id }, 'incoming hook: release failed'));
        }
        const problem = toProblem(err);
        await log({ status: problem.status, applied: {}, ignored: [], error: `${problem.code}: ${problem.detail}` });
        throw err instanceof AppError ? withHeaders(err, headers) : err;
      }
    },

    /** Writes the refusals counted and not yet written. */
    flush: () => refusals.flush(),
  };
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

function excerpt(raw: Uint8Array): string {
  if (raw.byteLength <= PAYLOAD_CAP) return Buffer.from(raw).toString('utf8');
  // The cut may fall inside a character: its broken tail is dropped rather than shown as U+FFFD.
  return `${Buffer.from(raw.subarray(0, PAYLOAD_CAP))
    .toString('utf8')
    .replace(/\uFFFD+$/, '')}…`;
}

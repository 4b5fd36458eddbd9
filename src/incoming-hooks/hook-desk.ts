/**
 * What the incoming-hook operations need beyond storage (docs/incoming-hooks.md): sealing a hook's signing secret,
 * finding the hook a URL names (counted per client address before the lookup, so that guessing tokens costs
 * little), checking a signed post and claiming its replay keys in the store (so a replay is refused on every node),
 * and the logs: refused posts folded one line per second (refusal-log.ts), accepted ones in the hook's own log.
 */
import type { Logger } from 'pino';
import type { SecretBox } from '../crypto/secret-box.js';
import { AppError } from '../errors.js';
import { sha256Hex } from '../ids.js';
import { admitCustom } from '../limits/enforce.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { HookDeliveryRecord, IncomingHookRecord, IncomingHookStore } from '../store/incoming-hook-store.js';
import { replayClaims, replayed, unreadableSecret, verifySignature, type SignedParts } from './hook-signature.js';
import { createRefusalLog, type Refusal } from './refusal-log.js';

/** Posts each hook keeps in its log. */
export const LOG_KEEP = 50;
/** Expired replay keys are deleted at most this often (by the node that meets one first). */
const PRUNE_EVERY_MS = 60_000;

export interface IncomingHookDesk {
  /** A signing secret sealed for the hook `id`. */
  seal(secret: string, id: string): string;
  /** The hook a URL token names, or 404 (the same for every unknown token); 429 past the per-address limit. */
  lookup(token: string, client: string | undefined): Promise<IncomingHookRecord>;
  /** Checks a signed post and claims its replay keys; answers the keys it now holds (to release on failure). */
  claim(hook: IncomingHookRecord, post: SignedParts): Promise<string[]>;
  /** Gives back a post's replay keys: nothing of it was applied, so the same post may come again. */
  release(hook: IncomingHookRecord, keys: string[]): Promise<void>;
  /** A post refused at the door, for the hook's refusal log. */
  refused(hookId: string, refusal: Refusal): Promise<void>;
  /** A post past the door, for the hook's log of posts. */
  logPost(hookId: string, entry: HookDeliveryRecord): Promise<void>;
  /** Writes what the refusal log has counted and not yet written (a server stopping). */
  flush(): Promise<void>;
}

export interface IncomingHookDeskDeps {
  store: IncomingHookStore;
  box: SecretBox;
  limiter: RateLimiter;
  logger: Logger;
  now: () => number;
  /** Requests to hook URLs from one client address per second (429 beyond), before the token is looked up. */
  postsPerAddressPerSecond: number;
}

export function createIncomingHookDesk(deps: IncomingHookDeskDeps): IncomingHookDesk {
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

  return {
    seal: (secret, id) => deps.box.seal(secret, id),
    async lookup(token, client) {
      if (client !== undefined) {
        const rule = { limit: deps.postsPerAddressPerSecond, windowMs: 1_000 };
        const what = 'requests to incoming-hook URLs from this address';
        await admitCustom(deps.limiter, `hooks:address:${client}`, rule, what);
      }
      const hook = token.length <= 100 ? await deps.store.findHookByTokenHash(sha256Hex(token)) : undefined;
      if (!hook) throw new AppError('not_found', 'No incoming webhook has this address.');
      return hook;
    },
    async claim(hook, post) {
      verifySignature(secretOf(hook), post, deps.now());
      const claims = replayClaims(post, deps.now());
      const held = await deps.store.claimPost(hook.id, claims, deps.now());
      if (held !== null) throw replayed(held);
      prune();
      return claims.map((c) => c.key);
    },
    async release(hook, keys) {
      if (keys.length === 0) return;
      await deps.store
        .releasePost(hook.id, keys)
        .catch((err: unknown) => deps.logger.error({ err, hookId: hook.id }, 'incoming hook: release failed'));
    },
    refused: (hookId, refusal) => refusals.note(hookId, refusal),
    logPost: (hookId, entry) => deps.store.logDelivery(hookId, entry, LOG_KEEP),
    flush: () => refusals.flush(),
  };
}

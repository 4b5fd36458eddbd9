/**
 * Signed posts to an incoming hook (docs/incoming-hooks.md, "Signed posts"): the outgoing deliveries' scheme (v1=
 * hex HMAC-SHA256 of "timestamp.raw body", 300 s tolerance), and what makes a replay recognisable. The delivery id
 * is not part of the signed material, so a replayer could change it: the signed (timestamp, signature) pair is
 * what stops a replay; the id adds that a sender's own retry of a post already received is not applied twice.
 */
import { signatureMatches } from '../crypto/signature.js';
import { AppError } from '../errors.js';
import type { PostClaim } from '../store/incoming-hook-store.js';

export const SIGNATURE_TOLERANCE_S = 300;
/** How long a delivery id is remembered after its post, so that a retry of it is refused. */
const DELIVERY_ID_KEPT_MS = SIGNATURE_TOLERANCE_S * 1000;
/** Visible ASCII, as Idempotency-Key takes, at most 200 characters. */
const DELIVERY_ID = /^[\x21-\x7e]{1,200}$/;

export interface SignedParts {
  raw: Uint8Array;
  timestamp: string | undefined;
  signature: string | undefined;
  deliveryId: string | undefined;
}

const bad = (why: string) => new AppError('bad_signature', `${why} See docs/incoming-hooks.md, "Signed posts".`);

/** Throws bad_signature unless the post is signed with `secret`, within the tolerance of `nowMs`. */
export function verifySignature(secret: string, post: SignedParts, nowMs: number): void {
  const { timestamp, signature } = post;
  if (!timestamp || !signature) throw bad('This hook needs X-Service-Timestamp and X-Service-Signature.');
  if (!/^\d{1,12}$/.test(timestamp)) throw bad('X-Service-Timestamp must be Unix seconds.');
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_S) {
    throw bad('X-Service-Timestamp is more than 300 seconds from the server clock.');
  }
  if (!signatureMatches(secret, timestamp, post.raw, signature)) {
    throw bad('The signature does not match this body and timestamp.');
  }
}

/** The answer for a hook whose secret this server cannot open (restored without its key). */
export function unreadableSecret(): AppError {
  return bad(
    "The signature cannot be checked: this hook's signing secret cannot be read on this server, so no post is " +
      'accepted until the hook is added again.',
  );
}

/**
 * What a verified post claims, each until it can no longer come back: its signature until its timestamp leaves the
 * window (a post can only be replayed while its timestamp is accepted), its delivery id for 300 s after arriving.
 */
export function replayClaims(post: SignedParts, nowMs: number): PostClaim[] {
  const claims: PostClaim[] = [
    {
      key: `sig:${post.timestamp!}:${post.signature!}`,
      expiresAt: (Number(post.timestamp) + SIGNATURE_TOLERANCE_S + 1) * 1000,
    },
  ];
  if (post.deliveryId !== undefined) {
    if (!DELIVERY_ID.test(post.deliveryId)) {
      throw new AppError('invalid_request', 'X-Service-Delivery must be 1 to 200 visible ASCII characters.', {
        errors: [{ path: 'header x-service-delivery', message: 'must be 1 to 200 visible ASCII characters' }],
      });
    }
    claims.push({ key: `id:${post.deliveryId}`, expiresAt: nowMs + DELIVERY_ID_KEPT_MS });
  }
  return claims;
}

/** 409 for a post whose claim another post holds: it was received before, and nothing of it is applied again. */
export function replayed(heldKey: string): AppError {
  const what = heldKey.startsWith('id:')
    ? 'A post with this X-Service-Delivery was received in the last 300 seconds'
    : 'This signed post (the same X-Service-Timestamp and X-Service-Signature) was received before';
  return new AppError(
    'conflict',
    `${what}: nothing was applied. Sign each post afresh; see docs/incoming-hooks.md, "Replays".`,
  );
}

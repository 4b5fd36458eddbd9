/**
 * Creating API keys. A caller can never mint a key beyond itself: every permission must be one it holds
 * (`*` only from `*`), and a channel-locked caller can only mint keys locked to a subset of its channels.
 */
import { AppError } from '../errors.js';
import { newApiKeySecret, newId, sha256Hex } from '../ids.js';
import type { ApiKeyRecord } from '../store/store.js';
import { hasGrant, type Grant, type Principal } from './permissions.js';

export interface KeyRequest {
  name: string;
  permissions: Grant[];
  channelIds?: string[] | undefined;
}

export function assertWithin(principal: Principal, request: Pick<KeyRequest, 'permissions' | 'channelIds'>): void {
  if (principal.kind === 'output') throw new AppError('forbidden', 'An output token cannot manage keys.');
  for (const p of request.permissions) {
    const held = p === '*' ? principal.grants.has('*') : hasGrant(principal.grants, p);
    if (!held) {
      throw new AppError('forbidden', `You cannot grant "${p}": a key can only have permissions its creator holds.`, {
        extra: { permission: p },
      });
    }
  }
  if (principal.channelIds) {
    const outside = (request.channelIds ?? [null]).filter((id) => id === null || !principal.channelIds?.has(id));
    if (outside.length > 0) {
      throw new AppError('forbidden', 'A channel-locked caller can only create keys locked to its own channels.');
    }
  }
}

/** Builds the record and the secret (returned once, never stored). */
export function mintKey(
  orgId: string,
  request: KeyRequest,
  now = new Date(),
): { record: ApiKeyRecord; secret: string } {
  const secret = newApiKeySecret();
  const record: ApiKeyRecord = {
    id: newId('key'),
    orgId,
    name: request.name,
    hash: sha256Hex(secret),
    prefix: secret.slice(0, 13),
    permissions: [...new Set(request.permissions)],
    channelIds: request.channelIds ? [...new Set(request.channelIds)] : null,
    createdAt: now.toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  };
  return { record, secret };
}

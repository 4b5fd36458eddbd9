/**
 * API keys (docs/api.md, "Authentication"): create (the secret is shown once), list, read, revoke. A caller never
 * mints or revokes a key beyond itself (auth/mint-key.ts), and a channel-locked caller sees only keys locked within
 * its own channels: others would reveal channel ids.
 */
import { z } from 'zod';
import { assertWithin, mintKey } from '../auth/mint-key.js';
import { PERMISSIONS, type Grant, type Principal } from '../auth/permissions.js';
import { AppError } from '../errors.js';
import { assertRoom } from '../limits/resource-limits.js';
import type { ApiKeyRecord, Store } from '../store/store.js';
import type { OperationContext, WorkspaceOperation } from './operation.js';
import { PageQuery, page, ResourceId, type Page } from './paging.js';

const GrantSchema = z.enum(['*', ...PERMISSIONS]);

export const KeyIn = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    permissions: z.array(GrantSchema).min(1).max(10),
    channelIds: z.array(z.string().min(1).max(100)).min(1).max(1000).optional(),
  })
  .meta({ id: 'KeyIn' });

const KeyRef = z.strictObject({ keyId: ResourceId });

/** A key as the API shows it: never its secret, only the prefix that recognises it. */
export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  permissions: string[];
  channelIds: string[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function keyView(k: ApiKeyRecord): KeyView {
  const { id, name, prefix, permissions, channelIds, createdAt, lastUsedAt, revokedAt } = k;
  return { id, name, prefix, permissions, channelIds, createdAt, lastUsedAt, revokedAt };
}

const manage = { scope: 'workspace', permission: 'keys:manage' } as const;

export const createKey: WorkspaceOperation<z.infer<typeof KeyIn>, KeyView & { secret: string }> = {
  ...manage,
  name: 'keys.create',
  bucket: 'creates',
  input: KeyIn,
  async run({ caller: { principal }, services }, body) {
    assertWithin(principal, { permissions: body.permissions, channelIds: body.channelIds });
    for (const id of body.channelIds ?? []) {
      if (!services.engine.has(id) || services.engine.channelRecord(id).orgId !== principal.orgId) {
        throw new AppError('invalid_request', `Channel ${id} does not exist.`, {
          errors: [{ path: 'channelIds', message: `unknown channel ${id}` }],
        });
      }
    }
    assertRoom(
      await services.store.countActiveKeys(principal.orgId),
      services.limits.keysPerWorkspace,
      'A workspace has at most {limit} API keys that are not revoked',
      'ONAIR_LIMIT_KEYS_PER_WORKSPACE',
    );
    const { record, secret } = mintKey(principal.orgId, body);
    await services.store.insertKey(record);
    return { ...keyView(record), secret };
  },
};

export const listKeys: WorkspaceOperation<{ limit: number; cursor?: string | undefined }, Page<KeyView>> = {
  ...manage,
  name: 'keys.list',
  bucket: 'reads',
  input: z.strictObject(PageQuery),
  async run({ caller: { principal }, services }, { limit, cursor }) {
    return page((await visibleKeys(services.store, principal, limit, cursor)).map(keyView), limit);
  },
};

export const getKey: WorkspaceOperation<{ keyId: string }, KeyView> = {
  ...manage,
  name: 'keys.get',
  bucket: 'reads',
  input: KeyRef,
  run: async (ctx, { keyId }) => keyView(await findKey(ctx, keyId)),
};

/** Revoking is as strong as minting: only keys the caller could have created. The key stops working at once. */
export const revokeKey: WorkspaceOperation<{ keyId: string }, void> = {
  ...manage,
  name: 'keys.revoke',
  bucket: 'creates',
  input: KeyRef,
  async run(ctx, { keyId }) {
    const { caller, services } = ctx;
    const key = await findKey(ctx, keyId);
    assertWithin(caller.principal, {
      permissions: key.permissions as Grant[],
      channelIds: key.channelIds ?? undefined,
    });
    await services.store.revokeKey(key.id, new Date(services.now()).toISOString());
    services.keyRevoked(key.id);
  },
};

async function findKey({ caller: { principal }, services }: OperationContext, keyId: string): Promise<ApiKeyRecord> {
  const key = await services.store.getKey(keyId);
  if (!key || !visibleTo(principal, key)) throw new AppError('not_found', `Key ${keyId} does not exist.`);
  return key;
}

function visibleTo(principal: Principal, key: ApiKeyRecord): boolean {
  if (key.orgId !== principal.orgId || principal.kind === 'output') return false;
  const lock = principal.channelIds;
  return !lock || (key.channelIds !== null && key.channelIds.every((id) => lock.has(id)));
}

const SCAN_BATCH = 100;

/**
 * Up to `limit + 1` keys the caller may see, after `cursor`: the store's pages are read until that many visible keys
 * are found, so a page is never short while more visible keys exist.
 */
async function visibleKeys(store: Store, principal: Principal, limit: number, cursor: string | undefined) {
  const found: ApiKeyRecord[] = [];
  let after = cursor;
  for (;;) {
    const batch = await store.listKeys(principal.orgId, { limit: SCAN_BATCH, after });
    for (const key of batch) {
      if (visibleTo(principal, key)) found.push(key);
      if (found.length > limit) return found;
    }
    const last = batch.at(-1);
    if (batch.length < SCAN_BATCH || !last) return found;
    after = last.id;
  }
}

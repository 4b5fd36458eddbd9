import { OpenAPIHono, z } from '@hono/zod-openapi';
import { assertWithin, mintKey } from '../../auth/mint-key.js';
import { PERMISSIONS, type Grant, type Principal } from '../../auth/permissions.js';
import { AppError } from '../../errors.js';
import { assertRoom } from '../../limits/resource-limits.js';
import type { ApiKeyRecord, Store } from '../../store/store.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeDefiner } from '../route.js';
import { ListQuery, listOf, page, json } from '../schemas/common.js';

const GrantSchema = z.enum(['*', ...PERMISSIONS]);

const KeyIn = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    permissions: z.array(GrantSchema).min(1).max(10),
    channelIds: z.array(z.string().min(1).max(100)).min(1).max(1000).optional(),
  })
  .openapi('KeyIn');

const KeyOut = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().openapi({ description: 'The first characters of the secret, to recognise it.' }),
    permissions: z.array(z.string()),
    channelIds: z.array(z.string()).nullable(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .openapi('Key');
const KeyCreated = KeyOut.extend({
  secret: z.string().openapi({ description: 'Shown only in this response.' }),
}).openapi('KeyCreated');
const KeyParam = z.object({
  keyId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'keyId', in: 'path' } }),
});

/** A channel-locked caller sees only keys locked within its own channels: others would reveal channel ids. */
function visibleTo(principal: Principal, key: ApiKeyRecord): boolean {
  if (key.orgId !== principal.orgId || principal.kind === 'output') return false;
  const lock = principal.channelIds;
  return !lock || (key.channelIds !== null && key.channelIds.every((id) => lock.has(id)));
}

const SCAN_BATCH = 100;

/**
 * Up to `limit + 1` keys the caller may see, after `cursor`: the store's pages are read until that many
 * visible keys are found, so a page is never short while more visible keys exist.
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

function keyView(k: ApiKeyRecord) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    permissions: k.permissions,
    channelIds: k.channelIds,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
  };
}

export function keyRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeDefiner(deps);
  const { store, engine } = deps;

  const findKey = async (principal: Principal, keyId: string) => {
    const key = await store.getKey(keyId);
    if (!key || !visibleTo(principal, key)) throw new AppError('not_found', `Key ${keyId} does not exist.`);
    return key;
  };

  app.openapi(
    route(
      { permission: 'keys:manage', bucket: 'creates' },
      {
        method: 'post',
        path: '/keys',
        tags: ['Keys'],
        summary: 'Create an API key (the secret is shown once)',
        request: { body: { required: true, ...json(KeyIn) } },
        responses: { 201: { description: 'Created; `secret` appears only here', ...json(KeyCreated) } },
      },
    ),
    async (c) => {
      const body = c.req.valid('json');
      const principal = c.get('principal');
      assertWithin(principal, { permissions: body.permissions, channelIds: body.channelIds });
      for (const id of body.channelIds ?? []) {
        if (!engine.has(id) || engine.channelRecord(id).orgId !== principal.orgId) {
          throw new AppError('invalid_request', `Channel ${id} does not exist.`, {
            errors: [{ path: 'channelIds', message: `unknown channel ${id}` }],
          });
        }
      }
      assertRoom(
        await store.countActiveKeys(principal.orgId),
        deps.limits.keysPerWorkspace,
        'A workspace has at most {limit} API keys that are not revoked',
        'ONAIR_LIMIT_KEYS_PER_WORKSPACE',
      );
      const { record, secret } = mintKey(principal.orgId, { ...body, permissions: body.permissions });
      await store.insertKey(record);
      return c.json({ ...keyView(record), secret }, 201);
    },
  );

  app.openapi(
    route(
      { permission: 'keys:manage', bucket: 'reads' },
      {
        method: 'get',
        path: '/keys',
        tags: ['Keys'],
        summary: 'List API keys (never their secrets)',
        request: { query: ListQuery },
        responses: { 200: { description: 'Keys in creation order', ...json(listOf(KeyOut, 'KeyList')) } },
      },
    ),
    async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const principal = c.get('principal');
      return c.json(page((await visibleKeys(store, principal, limit, cursor)).map(keyView), limit), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'keys:manage', bucket: 'reads' },
      {
        method: 'get',
        path: '/keys/{keyId}',
        tags: ['Keys'],
        summary: 'Read an API key',
        request: { params: KeyParam },
        responses: { 200: { description: 'The key', ...json(KeyOut) } },
      },
    ),
    async (c) => c.json(keyView(await findKey(c.get('principal'), c.req.valid('param').keyId)), 200),
  );

  app.openapi(
    route(
      { permission: 'keys:manage', bucket: 'creates' },
      {
        method: 'delete',
        path: '/keys/{keyId}',
        tags: ['Keys'],
        summary: 'Revoke an API key (it stops working at once)',
        request: { params: KeyParam },
        responses: { 204: { description: 'Revoked' } },
      },
    ),
    async (c) => {
      const principal = c.get('principal');
      const key = await findKey(principal, c.req.valid('param').keyId);
      // Revoking is as strong as minting: only keys the caller could have created.
      assertWithin(principal, { permissions: key.permissions as Grant[], channelIds: key.channelIds ?? undefined });
      await store.revokeKey(key.id, new Date().toISOString());
      deps.auth.revoked(key.id);
      return c.body(null, 204);
    },
  );

  return app;
}

/** API keys (docs/api.md, "Authentication"): declarations over operations/keys.ts. */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { createKey, getKey, KeyIn, listKeys, revokeKey } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { operationBinder } from '../operation-route.js';
import { ListQuery, listOf, json } from '../schemas/common.js';

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

export function keyRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const bind = operationBinder(app, deps.runner);
  const tags = ['Keys'];

  bind(createKey, {
    method: 'post',
    path: '/keys',
    status: 201,
    tags,
    summary: 'Create an API key (the secret is shown once)',
    request: { body: { required: true, ...json(KeyIn) } },
    responses: { 201: { description: 'Created; `secret` appears only here', ...json(KeyCreated) } },
  });
  bind(listKeys, {
    method: 'get',
    path: '/keys',
    tags,
    summary: 'List API keys (never their secrets)',
    request: { query: ListQuery },
    responses: { 200: { description: 'Keys in creation order', ...json(listOf(KeyOut, 'KeyList')) } },
  });
  bind(getKey, {
    method: 'get',
    path: '/keys/{keyId}',
    tags,
    summary: 'Read an API key',
    request: { params: KeyParam },
    responses: { 200: { description: 'The key', ...json(KeyOut) } },
  });
  bind(revokeKey, {
    method: 'delete',
    path: '/keys/{keyId}',
    status: 204,
    tags,
    summary: 'Revoke an API key (it stops working at once)',
    request: { params: KeyParam },
    responses: { 204: { description: 'Revoked' } },
  });
  return app;
}

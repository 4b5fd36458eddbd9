/** API keys (docs/api.md, "Authentication"): declarations over operations/keys.ts. */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { createKey, getKey, KeyIn, listKeys, revokeKey } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeBinder } from '../route-spec.js';
import { ListQuery, listOf, pathParam } from '../schemas/common.js';

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
const params = z.object({ keyId: pathParam('keyId') });

export function keyRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeBinder(app, deps.runner, ['Keys']);
  route(createKey, 'post /keys', {
    summary: 'Create an API key (the secret is shown once)',
    body: KeyIn,
    ok: [201, 'Created; `secret` appears only here', KeyCreated],
  });
  route(listKeys, 'get /keys', {
    summary: 'List API keys (never their secrets)',
    query: ListQuery,
    ok: [200, 'Keys in creation order', listOf(KeyOut, 'KeyList')],
  });
  route(getKey, 'get /keys/{keyId}', { summary: 'Read an API key', params, ok: [200, 'The key', KeyOut] });
  route(revokeKey, 'delete /keys/{keyId}', {
    summary: 'Revoke an API key (it stops working at once)',
    params,
    ok: [204, 'Revoked'],
  });
  return app;
}

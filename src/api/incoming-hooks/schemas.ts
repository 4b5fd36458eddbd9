/** What the incoming-hook routes answer, for the OpenAPI document (docs/incoming-hooks.md). Inputs are the operations'. */
import { z } from '@hono/zod-openapi';
import { ChannelIdParam, pathParam } from '../schemas/common.js';

export const HookOut = z
  .object({
    id: z.string(),
    channelId: z.string(),
    name: z.string(),
    mapping: z.record(z.string(), z.string()),
    requireSignature: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('IncomingHook');
export const HookCreated = HookOut.extend({
  url: z.string().openapi({ description: 'The address to post to; its token is the credential. Shown only here.' }),
  secret: z.string().nullable().openapi({ description: 'The signing secret (requireSignature), shown only here.' }),
}).openapi('IncomingHookCreated');
export const DeliveryOut = z
  .object({
    at: z.string(),
    status: z.number().int(),
    applied: z.record(z.string(), z.unknown()),
    ignored: z.array(z.string()),
    error: z.string().nullable(),
    payload: z.string(),
    dryRun: z.boolean(),
  })
  .openapi('IncomingHookDelivery');
export const RefusalOut = z
  .object({
    at: z.string().openapi({ description: 'The second the refusals fall in.' }),
    status: z.number().int().openapi({ description: 'The status of the first refusal of that second.' }),
    error: z.string().openapi({ description: '`code: detail` of the first refusal of that second.' }),
    payload: z.string().openapi({ description: 'The start of the first refused body (at most 2 KiB).' }),
    count: z.number().int().openapi({ description: 'Posts refused in that second, the first included.' }),
  })
  .openapi('IncomingHookRefusal');
export const PostHeaders = z.object({
  'x-service-timestamp': z.string().optional().openapi({ description: 'Signed hooks: Unix seconds of the post.' }),
  'x-service-signature': z
    .string()
    .optional()
    .openapi({ description: 'Signed hooks: `v1=` + hex HMAC-SHA256 of "timestamp.body" (docs/incoming-hooks.md).' }),
  'x-service-delivery': z.string().optional().openapi({
    description:
      'Signed hooks, optional: an id of this post (1–200 visible ASCII characters), the same across your retries; a second post with the same id within 300 s is refused with 409.',
  }),
});
export const PostAnswer = z
  .object({
    frame: z.number().int().nullable(),
    applied: z.record(z.string(), z.unknown()),
    ignored: z.array(z.string()),
    dryRun: z.boolean().optional(),
  })
  .openapi('IncomingHookAnswer');

export const HookParams = ChannelIdParam.extend({ hookId: pathParam('hookId') });
export const TokenParam = z.object({
  token: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'token', in: 'path' } }),
});

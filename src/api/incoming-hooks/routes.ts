/**
 * Incoming webhooks (docs/incoming-hooks.md): a channel's hooks under /channels/{id}/incoming-hooks, and the
 * public URL a scorekeeper posts to, /hooks/{token}. The routes parse and answer; the work is in
 * webhooks/incoming/incoming-hooks.ts.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { IncomingHookRecord } from '../../store/incoming-hook-store.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { BUCKET_EXTENSION, ERROR_RESPONSES, PERMISSION_EXTENSION, routeDefiner } from '../route.js';
import { ChannelIdParam, json, listOf } from '../schemas/common.js';
import { FIELD_PATH_PATTERN, FIELD_PATH_RULE, NAME_PATTERN, NAME_RULE } from '@onair/protocol';

const FieldPath = z.string().regex(FIELD_PATH_PATTERN, FIELD_PATH_RULE);
const InputName = z.string().regex(NAME_PATTERN, NAME_RULE);
const Mapping = z
  .record(FieldPath, InputName)
  .refine((m) => Object.keys(m).length <= 100, 'at most 100 fields')
  .openapi({
    description: 'Field path → input name. Empty: every top-level field sets the input of the same name.',
    example: { home_score: 'scoreA', 'game.clock.running': 'gameClock' },
  });

const HookIn = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    mapping: Mapping.optional(),
    requireSignature: z.boolean().optional(),
  })
  .openapi('IncomingHookIn');
const HookPatch = z
  .strictObject({ name: z.string().trim().min(1).max(200).optional(), mapping: Mapping.optional() })
  .openapi('IncomingHookPatch');

const HookOut = z
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
const HookCreated = HookOut.extend({
  url: z.string().openapi({ description: 'The address to post to; its token is the credential. Shown only here.' }),
  secret: z.string().nullable().openapi({ description: 'The signing secret (requireSignature), shown only here.' }),
}).openapi('IncomingHookCreated');
const DeliveryOut = z
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
const PostAnswer = z
  .object({
    frame: z.number().int().nullable(),
    applied: z.record(z.string(), z.unknown()),
    ignored: z.array(z.string()),
    dryRun: z.boolean().optional(),
  })
  .openapi('IncomingHookAnswer');

const HookParams = ChannelIdParam.extend({
  hookId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'hookId', in: 'path' } }),
});
const TokenParam = z.object({
  token: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'token', in: 'path' } }),
});

function view(h: IncomingHookRecord) {
  const { id, channelId, name, mapping, requireSignature, createdAt, updatedAt } = h;
  return { id, channelId, name, mapping, requireSignature, createdAt, updatedAt };
}

/** A public route: the token in the path is the credential; posts count against the channel's updates. */
function hookRoute<R extends Parameters<typeof createRoute>[0]>(config: R) {
  return createRoute({
    ...config,
    [PERMISSION_EXTENSION]: 'public',
    [BUCKET_EXTENSION]: 'updates',
    responses: { ...ERROR_RESPONSES, ...config.responses },
  });
}

export function incomingHookRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeDefiner(deps);
  const hooks = deps.incomingHooks;
  const tags = ['Incoming webhooks'];
  const base = '/channels/{id}/incoming-hooks';

  app.openapi(
    route(
      { permission: 'channels:write', bucket: 'creates' },
      {
        method: 'post',
        path: base,
        tags,
        summary: 'Add an incoming webhook to a channel (its URL and secret are shown once)',
        request: { params: ChannelIdParam, body: { required: false, ...json(HookIn) } },
        responses: { 201: { description: 'Created', ...json(HookCreated) } },
      },
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const { record, token, secret } = await hooks.create(c.get('principal'), id, c.req.valid('json'));
      return c.json({ ...view(record), url: `${deps.baseUrl()}/v1/hooks/${token}`, secret }, 201);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: base,
        tags,
        summary: "A channel's incoming webhooks (never their URL token or secret)",
        request: { params: ChannelIdParam },
        responses: { 200: { description: 'In creation order', ...json(listOf(HookOut, 'IncomingHookList')) } },
      },
    ),
    async (c) => {
      const found = await hooks.list(c.get('principal'), c.req.valid('param').id);
      return c.json({ data: found.map(view), nextCursor: null }, 200);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: `${base}/{hookId}`,
        tags,
        summary: 'Read an incoming webhook',
        request: { params: HookParams },
        responses: { 200: { description: 'The hook', ...json(HookOut) } },
      },
    ),
    async (c) => {
      const { id, hookId } = c.req.valid('param');
      return c.json(view(await hooks.get(c.get('principal'), id, hookId)), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:write', bucket: 'creates' },
      {
        method: 'patch',
        path: `${base}/{hookId}`,
        tags,
        summary: 'Rename an incoming webhook or change its mapping (its URL stays)',
        request: { params: HookParams, body: { required: true, ...json(HookPatch) } },
        responses: { 200: { description: 'The hook', ...json(HookOut) } },
      },
    ),
    async (c) => {
      const { id, hookId } = c.req.valid('param');
      return c.json(view(await hooks.update(c.get('principal'), id, hookId, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:write', bucket: 'creates' },
      {
        method: 'delete',
        path: `${base}/{hookId}`,
        tags,
        summary: 'Delete an incoming webhook (its URL stops working at once)',
        request: { params: HookParams },
        responses: { 204: { description: 'Deleted' } },
      },
    ),
    async (c) => {
      const { id, hookId } = c.req.valid('param');
      await hooks.remove(c.get('principal'), id, hookId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: `${base}/{hookId}/deliveries`,
        tags,
        summary: "The hook's last 50 posts, newest first",
        request: { params: HookParams },
        responses: { 200: { description: 'Newest first', ...json(listOf(DeliveryOut, 'IncomingHookDeliveryList')) } },
      },
    ),
    async (c) => {
      const { id, hookId } = c.req.valid('param');
      return c.json({ data: await hooks.deliveries(c.get('principal'), id, hookId), nextCursor: null }, 200);
    },
  );

  app.openapi(
    hookRoute({
      method: 'post',
      path: '/hooks/{token}',
      tags,
      summary: "Post fields to a channel's inputs (the seed's flat JSON object, or nested with a mapping)",
      description: 'Body: a JSON object. `?dryRun=1` answers what would be applied and applies nothing.',
      request: { params: TokenParam, query: z.object({ dryRun: z.enum(['0', '1', 'true', 'false']).optional() }) },
      responses: { 200: { description: 'Applied (or, dry, what would be)', ...json(PostAnswer) } },
    }),
    async (c) => {
      const hook = await hooks.byToken(c.req.valid('param').token);
      const dry = c.req.valid('query').dryRun;
      const answer = await hooks.receive(hook, {
        raw: c.get('rawBody'),
        contentType: c.req.header('content-type'),
        timestamp: c.req.header('x-service-timestamp'),
        signature: c.req.header('x-service-signature'),
        dryRun: dry === '1' || dry === 'true',
      });
      const { headers, ...body } = answer;
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      return c.json(body, 200);
    },
  );

  app.openapi(
    hookRoute({
      method: 'get',
      path: '/hooks/{token}',
      tags,
      summary: 'How to use an incoming webhook address (never its mapping)',
      request: { params: TokenParam },
      responses: {
        200: {
          description: 'Instructions',
          ...json(
            z
              .object({ message: z.string(), method: z.string(), requireSignature: z.boolean() })
              .openapi('IncomingHookUsage'),
          ),
        },
      },
    }),
    async (c) => {
      const hook = await hooks.byToken(c.req.valid('param').token);
      const { headers, requireSignature } = await hooks.describe(hook);
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      const message =
        'This is an onair incoming webhook. POST a JSON object of fields with "Content-Type: application/json", ' +
        'for example {"home_score": 2}; the answer says what was applied and which fields were ignored. ' +
        'Add ?dryRun=1 to see that without applying anything.' +
        (requireSignature ? ' Posts must be signed (X-Service-Timestamp, X-Service-Signature).' : '');
      return c.json({ message, method: 'POST', requireSignature }, 200);
    },
  );

  return app;
}

/**
 * Incoming webhooks (docs/incoming-hooks.md): a channel's hooks under /channels/{id}/incoming-hooks, declarations over
 * operations/incoming-hooks.ts, and the public URL a scorekeeper posts to, /hooks/{token}, whose token is the
 * credential (operations/hook-posts.ts).
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  createIncomingHook,
  deleteIncomingHook,
  describeHook,
  getIncomingHook,
  HookIn,
  HookPatch,
  hookAt,
  listHookPosts,
  listHookRefusals,
  listIncomingHooks,
  receiveHookPost,
  updateIncomingHook,
} from '../../operations/index.js';
import { CLIENT_ADDRESS_HEADER } from '../../http/client-address.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { operationBinder } from '../operation-route.js';
import { BUCKET_EXTENSION, ERROR_RESPONSES, isDryRun, PERMISSION_EXTENSION } from '../route-docs.js';
import { ChannelIdParam, json, ListQuery, listOf, ProblemSchema } from '../schemas/common.js';
import {
  DeliveryOut,
  HookCreated,
  HookOut,
  HookParams,
  PostAnswer,
  PostHeaders,
  RefusalOut,
  TokenParam,
} from './schemas.js';

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
  const bind = operationBinder(app, deps.runner);
  const tags = ['Incoming webhooks'];
  const base = '/channels/{id}/incoming-hooks';
  const one = `${base}/{hookId}`;

  bind(createIncomingHook, {
    method: 'post',
    path: base,
    status: 201,
    tags,
    summary: 'Add an incoming webhook to a channel (its URL and secret are shown once)',
    request: { params: ChannelIdParam, body: { required: false, ...json(HookIn) } },
    responses: { 201: { description: 'Created', ...json(HookCreated) } },
  });
  bind(listIncomingHooks, {
    method: 'get',
    path: base,
    tags,
    summary: "A channel's incoming webhooks (never their URL token or secret)",
    request: { params: ChannelIdParam, query: ListQuery },
    responses: { 200: { description: 'In creation order', ...json(listOf(HookOut, 'IncomingHookList')) } },
  });
  bind(getIncomingHook, {
    method: 'get',
    path: one,
    tags,
    summary: 'Read an incoming webhook',
    request: { params: HookParams },
    responses: { 200: { description: 'The hook', ...json(HookOut) } },
  });
  bind(updateIncomingHook, {
    method: 'patch',
    path: one,
    tags,
    summary: 'Rename an incoming webhook or change its mapping (its URL stays)',
    request: { params: HookParams, body: { required: true, ...json(HookPatch) } },
    responses: { 200: { description: 'The hook', ...json(HookOut) } },
  });
  bind(deleteIncomingHook, {
    method: 'delete',
    path: one,
    status: 204,
    tags,
    summary: 'Delete an incoming webhook (its URL stops working at once)',
    request: { params: HookParams },
    responses: { 204: { description: 'Deleted' } },
  });
  bind(listHookPosts, {
    method: 'get',
    path: `${one}/deliveries`,
    tags,
    summary: "The hook's last 50 posts, newest first",
    request: { params: HookParams },
    responses: { 200: { description: 'Newest first', ...json(listOf(DeliveryOut, 'IncomingHookDeliveryList')) } },
  });
  bind(listHookRefusals, {
    method: 'get',
    path: `${one}/refusals`,
    tags,
    summary: "Posts refused at the hook's door (rate limited, bad signature, replayed): one line per second, last 50",
    request: { params: HookParams },
    responses: {
      200: { description: 'Newest second first', ...json(listOf(RefusalOut, 'IncomingHookRefusalList')) },
    },
  });

  app.openapi(
    hookRoute({
      method: 'post',
      path: '/hooks/{token}',
      tags,
      summary: "Post fields to a channel's inputs (the seed's flat JSON object, or nested with a mapping)",
      description:
        'Body: a JSON object. `?dryRun=1` answers what would be applied and applies nothing. Every post counts against ' +
        "the channel's updates before it is read, refused and dry ones too. A hook that requires signatures takes each " +
        'signed post once: the same post again, or the same `X-Service-Delivery`, is 409 `conflict`.',
      request: {
        params: TokenParam,
        query: z.object({ dryRun: z.enum(['0', '1', 'true', 'false']).optional() }),
        headers: PostHeaders,
      },
      responses: {
        200: { description: 'Applied (or, dry, what would be)', ...json(PostAnswer) },
        409: {
          description: 'conflict (a signed post, or its X-Service-Delivery, received before)',
          content: { 'application/problem+json': { schema: ProblemSchema } },
        },
      },
    }),
    async (c) => {
      const hook = await hookAt(deps.runner, c.req.valid('param').token, c.req.header(CLIENT_ADDRESS_HEADER));
      const answer = await receiveHookPost(deps.runner, hook, {
        raw: c.get('rawBody'),
        contentType: c.req.header('content-type'),
        timestamp: c.req.header('x-service-timestamp'),
        signature: c.req.header('x-service-signature'),
        deliveryId: c.req.header('x-service-delivery'),
        dryRun: isDryRun(c.req.valid('query').dryRun),
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
      const hook = await hookAt(deps.runner, c.req.valid('param').token, c.req.header(CLIENT_ADDRESS_HEADER));
      const { headers, requireSignature } = await describeHook(deps.runner, hook);
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

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
import { routeBinder } from '../route-spec.js';
import {
  BUCKET_EXTENSION,
  ERROR_RESPONSES,
  isDryRun,
  PERMISSION_EXTENSION,
  problem,
  UNKNOWN_ASSET,
} from '../route-docs.js';
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
  const route = routeBinder(app, deps.runner, ['Incoming webhooks']);
  const tags = ['Incoming webhooks'];
  const base = '/channels/{id}/incoming-hooks';
  const one = `${base}/{hookId}`;
  route(createIncomingHook, `post ${base}`, {
    summary: 'Add an incoming webhook to a channel (its URL and secret are shown once)',
    params: ChannelIdParam,
    body: HookIn,
    optionalBody: true,
    ok: [201, 'Created', HookCreated],
  });
  route(listIncomingHooks, `get ${base}`, {
    summary: "A channel's incoming webhooks (never their URL token or secret)",
    params: ChannelIdParam,
    query: ListQuery,
    ok: [200, 'In creation order', listOf(HookOut, 'IncomingHookList')],
  });
  route(getIncomingHook, `get ${one}`, {
    summary: 'Read an incoming webhook',
    params: HookParams,
    ok: [200, 'The hook', HookOut],
  });
  route(updateIncomingHook, `patch ${one}`, {
    summary: 'Rename an incoming webhook or change its mapping (its URL stays)',
    params: HookParams,
    body: HookPatch,
    ok: [200, 'The hook', HookOut],
  });
  route(deleteIncomingHook, `delete ${one}`, {
    summary: 'Delete an incoming webhook (its URL stops working at once)',
    params: HookParams,
    ok: [204, 'Deleted'],
  });
  route(listHookPosts, `get ${one}/deliveries`, {
    summary: "The hook's last 50 posts, newest first",
    params: HookParams,
    ok: [200, 'Newest first', listOf(DeliveryOut, 'IncomingHookDeliveryList')],
  });
  route(listHookRefusals, `get ${one}/refusals`, {
    summary: "Posts refused at the hook's door (rate limited, bad signature, replayed): one line per second, last 50",
    params: HookParams,
    ok: [200, 'Newest second first', listOf(RefusalOut, 'IncomingHookRefusalList')],
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
        422: problem(UNKNOWN_ASSET),
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

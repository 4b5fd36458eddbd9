/**
 * The event log (docs/api.md, "Events"): what happened on the workspace's channels in the last 7 days,
 * oldest first, the same events outgoing webhooks deliver. Every event was written with the change that
 * caused it, so an acknowledged change is always here.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { authorize, type Principal } from '../../auth/permissions.js';
import { ENGINE_EVENT_TYPES, type Engine } from '../../engine/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeDefiner } from '../route.js';
import { json, ListQuery, listOf } from '../schemas/common.js';

const EventsQuery = z.strictObject({
  ...ListQuery.shape,
  channelId: z.string().min(1).max(100).optional().openapi({ description: "Only this channel's events." }),
  type: z.enum(ENGINE_EVENT_TYPES).optional().openapi({ description: 'Only events of this type.' }),
});

const EventOut = z
  .object({
    id: z.string().openapi({ description: '`evt_…`; ids sort by creation.' }),
    type: z.enum(ENGINE_EVENT_TYPES),
    orgId: z.string(),
    channelId: z.string(),
    createdAt: z.string(),
    data: z.record(z.string(), z.unknown()).openapi({ description: 'Depends on the type; always has `source`.' }),
  })
  .openapi('Event');

export function eventRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeDefiner(deps);

  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: '/events',
        tags: ['Events'],
        summary: "List the workspace's events of the last 7 days, oldest first",
        request: { query: EventsQuery },
        responses: { 200: { description: 'Events in creation order', ...json(listOf(EventOut, 'EventList')) } },
      },
    ),
    async (c) => {
      const { limit, cursor, channelId, type } = c.req.valid('query');
      const principal = c.get('principal');
      if (channelId !== undefined) checkChannel(deps.engine, principal, channelId);
      const lock = principal.kind !== 'output' && principal.channelIds ? [...principal.channelIds] : undefined;
      const found = await deps.store.listEvents(principal.orgId, {
        limit,
        after: cursor,
        channelId,
        type,
        onlyChannelIds: lock,
      });
      return c.json({ data: found.events, nextCursor: found.nextCursor }, 200);
    },
  );

  return app;
}

/** A channel of another workspace, outside the caller's lock, or gone is 404, as on every channel route. */
function checkChannel(engine: Engine, principal: Principal, channelId: string): void {
  const orgId = engine.has(channelId) ? engine.channelRecord(channelId).orgId : '\u0000missing';
  authorize(principal, 'channels:read', { orgId, channelId });
}

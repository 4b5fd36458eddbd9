/**
 * The event log (docs/api.md, "Events"): what happened on the workspace's channels in the last 7 days,
 * oldest first, the same events outgoing webhooks deliver. Every event was written with the change that
 * caused it, so an acknowledged change is always here.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { authorize, type Principal } from '../../auth/permissions.js';
import { ENGINE_EVENT_TYPES, type Engine } from '../../engine/index.js';
import { AppError } from '../../errors.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeDefiner } from '../route.js';
import { json, ListQuery, listOf } from '../schemas/common.js';

const EventsQuery = z.strictObject({
  ...ListQuery.shape,
  channelId: z.string().min(1).max(100).optional().openapi({ description: "Only this channel's events." }),
  type: z.enum(ENGINE_EVENT_TYPES).optional().openapi({ description: 'Only events of this type.' }),
  since: z.iso.datetime().optional().openapi({
    description: 'Only events created at or after this time (ISO 8601); start here instead of at the oldest.',
  }),
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
      const { limit, cursor, channelId, type, since } = c.req.valid('query');
      if (since !== undefined && cursor !== undefined)
        throw new AppError('invalid_request', 'since: send either since or cursor, not both', {
          errors: [{ path: 'since', message: 'not with cursor' }],
        });
      const principal = c.get('principal');
      if (channelId !== undefined) checkChannel(deps.engine, principal, channelId);
      const lock = principal.kind !== 'output' && principal.channelIds ? [...principal.channelIds] : undefined;
      const found = await deps.store.listEvents(principal.orgId, {
        limit,
        after: cursor ?? (since === undefined ? undefined : firstIdAt(Date.parse(since) - ID_SLACK_MS)),
        channelId,
        type,
        onlyChannelIds: lock,
      });
      const data = since === undefined ? found.events : found.events.filter((e) => e.createdAt >= since);
      return c.json({ data, nextCursor: found.nextCursor }, 200);
    },
  );

  return app;
}

/**
 * Event ids are UUIDv7: their first 12 hex digits are a time in milliseconds, and ids compare as strings in
 * time order. An id is made a little before its event's `createdAt` (the frame's time), so `since` starts
 * reading a second earlier and the page keeps only events created at or after it.
 */
const ID_SLACK_MS = 1000;

/** An id just below every event id made at or after `ms`. */
function firstIdAt(ms: number): string {
  return `evt_${Math.max(0, ms).toString(16).padStart(12, '0')}`;
}

/** A channel of another workspace, outside the caller's lock, or gone is 404, as on every channel route. */
function checkChannel(engine: Engine, principal: Principal, channelId: string): void {
  const orgId = engine.has(channelId) ? engine.channelRecord(channelId).orgId : '\u0000missing';
  authorize(principal, 'channels:read', { orgId, channelId });
}

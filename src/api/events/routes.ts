/** The event log (docs/api.md, "Events"): a declaration over operations/events.ts. */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { ENGINE_EVENT_TYPES } from '../../engine/index.js';
import { EventsQuery, listEvents } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeBinder } from '../route-spec.js';
import { listOf } from '../schemas/common.js';

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
  routeBinder(app, deps.runner, ['Events'])(listEvents, 'get /events', {
    summary: "List the workspace's events of the last 7 days, oldest first",
    query: EventsQuery,
    ok: [200, 'Events in creation order', listOf(EventOut, 'EventList')],
  });
  return app;
}

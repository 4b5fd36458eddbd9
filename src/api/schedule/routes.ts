/** Operations at a wall-clock time (docs/rundowns.md, "Take at a time"): declarations over operations/show-time.ts. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { cancelScheduled, listSchedule, scheduleOp, ScheduleIn } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { ScheduledOut, ScheduleList } from '../rundowns/schemas.js';
import { UNKNOWN_ASSET } from '../route-docs.js';
import { routeBinder } from '../route-spec.js';
import { ChannelIdParam, pathParam } from '../schemas/common.js';

export function scheduleRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeBinder(app, deps.runner, ['Schedule']);
  route(scheduleOp, 'post /channels/{id}/schedule', {
    summary: 'Schedule a take, cue, program or clear at a time (applied in the frame that holds it)',
    params: ChannelIdParam,
    body: ScheduleIn,
    ok: [201, 'Scheduled', ScheduledOut],
    more: { 422: UNKNOWN_ASSET },
  });
  route(listSchedule, 'get /channels/{id}/schedule', {
    summary: 'What is scheduled, soonest first',
    params: ChannelIdParam,
    ok: [200, 'The schedule', ScheduleList],
  });
  route(cancelScheduled, 'delete /channels/{id}/schedule/{scheduleId}', {
    summary: 'Cancel a scheduled operation',
    params: ChannelIdParam.extend({ scheduleId: pathParam('scheduleId') }),
    ok: [204, 'Cancelled'],
  });
  return app;
}

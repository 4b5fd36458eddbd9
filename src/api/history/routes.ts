/** Undo, redo and the on-air history they walk (docs/rundowns.md, "Undo"): declarations over operations/show-time.ts. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { listHistory, redo, undo } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { StateOut } from '../inputs/schemas.js';
import { routeBinder } from '../route-spec.js';
import { HistoryList } from '../rundowns/schemas.js';
import { ChannelIdParam, ListQuery } from '../schemas/common.js';

export function historyRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeBinder(app, deps.runner, ['History']);
  const ok = [200, 'The channel state after the change', StateOut] as [200, string, typeof StateOut];
  route(undo, 'post /channels/{id}/undo', {
    summary: "Undo the channel's last on-air action (buses and values as they were before it)",
    params: ChannelIdParam,
    ok,
    more: { 409: 'nothing_to_undo' },
    answer: (out) => out.state,
  });
  route(redo, 'post /channels/{id}/redo', {
    summary: 'Redo the last action undone',
    params: ChannelIdParam,
    ok,
    more: { 409: 'nothing_to_undo: nothing to redo' },
    answer: (out) => out.state,
  });
  route(listHistory, 'get /channels/{id}/history', {
    summary: 'The on-air actions undo walks, newest first, with who did each',
    params: ChannelIdParam,
    query: ListQuery,
    ok: [200, 'History', HistoryList],
  });
  return app;
}

/** Channels (docs/api.md, "Channels"): declarations over operations/channels.ts. */
import { OpenAPIHono } from '@hono/zod-openapi';
import {
  ChannelIn,
  ChannelUpdate,
  createChannel,
  deleteChannel,
  getChannel,
  listChannels,
  rotateOutputToken,
  updateChannel,
} from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeBinder } from '../route-spec.js';
import { ChannelIdParam as params, ListQuery, listOf } from '../schemas/common.js';
import { ChannelOut } from './schemas.js';

export function channelRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeBinder(app, deps.runner, ['Channels']);
  route(createChannel, 'post /channels', {
    summary: 'Create a channel',
    body: ChannelIn,
    ok: [201, 'Created', ChannelOut],
  });
  route(listChannels, 'get /channels', {
    summary: 'List channels',
    query: ListQuery,
    ok: [200, 'Channels in creation order', listOf(ChannelOut, 'ChannelList')],
  });
  route(getChannel, 'get /channels/{id}', { summary: 'Read a channel', params, ok: [200, 'The channel', ChannelOut] });
  route(updateChannel, 'patch /channels/{id}', {
    summary: 'Rename a channel or change its frame rate',
    params,
    body: ChannelUpdate,
    ok: [200, 'The channel', ChannelOut],
  });
  route(deleteChannel, 'delete /channels/{id}', {
    summary: 'Delete a channel, its scenes and state',
    params,
    ok: [204, 'Deleted'],
  });
  route(rotateOutputToken, 'post /channels/{id}/output-token', {
    summary: 'Rotate the output token (open renderers are closed; the old URL stops working)',
    params,
    ok: [200, 'The channel with its new outputUrl', ChannelOut],
  });
  return app;
}

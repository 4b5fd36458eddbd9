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
import { operationBinder } from '../operation-route.js';
import { ChannelIdParam, ListQuery, listOf, json } from '../schemas/common.js';
import { ChannelOut } from './schemas.js';

export function channelRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const bind = operationBinder(app, deps.runner);
  const tags = ['Channels'];

  bind(createChannel, {
    method: 'post',
    path: '/channels',
    status: 201,
    tags,
    summary: 'Create a channel',
    request: { body: { required: true, ...json(ChannelIn) } },
    responses: { 201: { description: 'Created', ...json(ChannelOut) } },
  });
  bind(listChannels, {
    method: 'get',
    path: '/channels',
    tags,
    summary: 'List channels',
    request: { query: ListQuery },
    responses: { 200: { description: 'Channels in creation order', ...json(listOf(ChannelOut, 'ChannelList')) } },
  });
  bind(getChannel, {
    method: 'get',
    path: '/channels/{id}',
    tags,
    summary: 'Read a channel',
    request: { params: ChannelIdParam },
    responses: { 200: { description: 'The channel', ...json(ChannelOut) } },
  });
  bind(updateChannel, {
    method: 'patch',
    path: '/channels/{id}',
    tags,
    summary: 'Rename a channel or change its frame rate',
    request: { params: ChannelIdParam, body: { required: true, ...json(ChannelUpdate) } },
    responses: { 200: { description: 'The channel', ...json(ChannelOut) } },
  });
  bind(deleteChannel, {
    method: 'delete',
    path: '/channels/{id}',
    status: 204,
    tags,
    summary: 'Delete a channel, its scenes and state',
    request: { params: ChannelIdParam },
    responses: { 204: { description: 'Deleted' } },
  });
  bind(rotateOutputToken, {
    method: 'post',
    path: '/channels/{id}/output-token',
    tags,
    summary: 'Rotate the output token (open renderers are closed; the old URL stops working)',
    request: { params: ChannelIdParam },
    responses: { 200: { description: 'The channel with its new outputUrl', ...json(ChannelOut) } },
  });
  return app;
}

import { OpenAPIHono } from '@hono/zod-openapi';
import type { ChannelRecord, FrameRate } from '../../engine/index.js';
import { AppError } from '../../errors.js';
import { assertRoom } from '../../limits/resource-limits.js';
import { newId, newOutputToken } from '../../ids.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeDefiner } from '../route.js';
import { ChannelIdParam, ListQuery, listOf, page, json } from '../schemas/common.js';
import { channelView } from './channel-view.js';
import { ChannelIn, ChannelOut, ChannelUpdate } from './schemas.js';

export function channelRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeDefiner(deps);
  const { engine, store } = deps;
  const view = (c: ChannelRecord) => channelView(c, deps.baseUrl());

  app.openapi(
    route(
      { permission: 'channels:write', bucket: 'creates' },
      {
        method: 'post',
        path: '/channels',
        tags: ['Channels'],
        summary: 'Create a channel',
        request: { body: { required: true, ...json(ChannelIn) } },
        responses: { 201: { description: 'Created', ...json(ChannelOut) } },
      },
    ),
    async (c) => {
      const body = c.req.valid('json');
      const principal = c.get('principal');
      if (principal.kind !== 'output' && principal.channelIds) {
        throw new AppError('forbidden', 'A channel-locked key cannot create channels.');
      }
      const max = deps.limits.channelsPerWorkspace;
      assertRoom(
        (await store.listChannels(principal.orgId, { limit: max })).length,
        max,
        'A workspace has at most {limit} channels',
        'ONAIR_LIMIT_CHANNELS_PER_WORKSPACE',
      );
      const now = new Date().toISOString();
      const record: ChannelRecord = {
        id: newId('ch'),
        orgId: principal.orgId,
        name: body.name,
        fps: (body.fps ?? 60) as FrameRate,
        width: body.width ?? 1920,
        height: body.height ?? 1080,
        outputToken: newOutputToken(),
        createdAt: now,
        updatedAt: now,
      };
      await store.insertChannel(record);
      engine.addChannel(record);
      return c.json(view(record), 201);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: '/channels',
        tags: ['Channels'],
        summary: 'List channels',
        request: { query: ListQuery },
        responses: { 200: { description: 'Channels in creation order', ...json(listOf(ChannelOut, 'ChannelList')) } },
      },
    ),
    async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const p = c.get('principal');
      const onlyIds = p.kind !== 'output' && p.channelIds ? [...p.channelIds] : undefined;
      const rows = await store.listChannels(p.orgId, { limit: limit + 1, after: cursor, onlyIds });
      return c.json(page(rows.map(view), limit), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: '/channels/{id}',
        tags: ['Channels'],
        summary: 'Read a channel',
        request: { params: ChannelIdParam },
        responses: { 200: { description: 'The channel', ...json(ChannelOut) } },
      },
    ),
    (c) => c.json(view(engine.channelRecord(c.req.valid('param').id)), 200),
  );

  app.openapi(
    route(
      { permission: 'channels:write', bucket: 'creates' },
      {
        method: 'patch',
        path: '/channels/{id}',
        tags: ['Channels'],
        summary: 'Rename a channel or change its frame rate',
        request: { params: ChannelIdParam, body: { required: true, ...json(ChannelUpdate) } },
        responses: { 200: { description: 'The channel', ...json(ChannelOut) } },
      },
    ),
    async (c) => {
      const body = c.req.valid('json');
      const before = engine.channelRecord(c.req.valid('param').id);
      const record: ChannelRecord = {
        ...before,
        name: body.name ?? before.name,
        fps: (body.fps ?? before.fps) as FrameRate,
        updatedAt: new Date().toISOString(),
      };
      await store.updateChannel(record);
      engine.updateChannel(record);
      return c.json(view(record), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:write', bucket: 'creates' },
      {
        method: 'delete',
        path: '/channels/{id}',
        tags: ['Channels'],
        summary: 'Delete a channel, its scenes and state',
        request: { params: ChannelIdParam },
        responses: { 204: { description: 'Deleted' } },
      },
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      await store.deleteChannel(id);
      engine.removeChannel(id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:write', bucket: 'creates' },
      {
        method: 'post',
        path: '/channels/{id}/output-token',
        tags: ['Channels'],
        summary: 'Rotate the output token (open renderers are closed; the old URL stops working)',
        request: { params: ChannelIdParam },
        responses: { 200: { description: 'The channel with its new outputUrl', ...json(ChannelOut) } },
      },
    ),
    async (c) => {
      const before = engine.channelRecord(c.req.valid('param').id);
      const record = { ...before, outputToken: newOutputToken(), updatedAt: new Date().toISOString() };
      await store.updateChannel(record);
      engine.updateChannel(record);
      return c.json(view(record), 200);
    },
  );

  return app;
}

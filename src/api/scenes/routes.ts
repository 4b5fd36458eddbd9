import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Engine, SceneRecord } from '../../engine/index.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { SceneDefinition } from '../../protocol/index.js';
import { findTemplate, TEMPLATES } from '../../templates/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeDefiner } from '../route.js';
import { ChannelIdParam, ListQuery, listOf, page, json } from '../schemas/common.js';
import { assertDeletable, assertLayerKept } from './on-air-checks.js';
import { sceneView } from './scene-view.js';
import { normaliseDefinition, SceneIn, SceneOut, SceneUpdate } from './schemas.js';

const SceneParams = ChannelIdParam.extend({
  sceneId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'sceneId', in: 'path' } }),
});

export function sceneRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeDefiner(deps);
  const { engine, store } = deps;

  app.openapi(
    route(
      { permission: 'channels:write', bucket: 'creates' },
      {
        method: 'post',
        path: '/channels/{id}/scenes',
        tags: ['Scenes'],
        summary: 'Add a scene from a template or a definition',
        request: { params: ChannelIdParam, body: { required: true, ...json(SceneIn) } },
        responses: {
          201: { description: 'Created', ...json(SceneOut) },
          409: { description: "An input clashes with the channel's" },
        },
      },
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const now = new Date().toISOString();
      const scene: SceneRecord = {
        id: newId('sc'),
        channelId: id,
        name: body.name,
        definition: resolveDefinition(body),
        createdAt: now,
        updatedAt: now,
      };
      engine.checkScene(scene);
      await store.insertScene(scene);
      engine.upsertScene(scene);
      return c.json(sceneView(scene), 201);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: '/channels/{id}/scenes',
        tags: ['Scenes'],
        summary: "List a channel's scenes",
        request: { params: ChannelIdParam, query: ListQuery },
        responses: { 200: { description: 'Scenes in creation order', ...json(listOf(SceneOut, 'SceneList')) } },
      },
    ),
    (c) => {
      const { limit, cursor } = c.req.valid('query');
      const scenes = engine.scenes(c.req.valid('param').id).filter((s) => cursor === undefined || s.id > cursor);
      scenes.sort((a, b) => (a.id < b.id ? -1 : 1));
      return c.json(page(scenes.slice(0, limit + 1).map(sceneView), limit), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:read', bucket: 'reads' },
      {
        method: 'get',
        path: '/channels/{id}/scenes/{sceneId}',
        tags: ['Scenes'],
        summary: 'Read a scene',
        request: { params: SceneParams },
        responses: { 200: { description: 'The scene', ...json(SceneOut) } },
      },
    ),
    (c) => {
      const { id, sceneId } = c.req.valid('param');
      return c.json(sceneView(findScene(engine, id, sceneId)), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:write', bucket: 'creates' },
      {
        method: 'put',
        path: '/channels/{id}/scenes/{sceneId}',
        tags: ['Scenes'],
        summary: "Replace a scene's definition",
        request: { params: SceneParams, body: { required: true, ...json(SceneUpdate) } },
        responses: {
          200: { description: 'The scene', ...json(SceneOut) },
          409: { description: "An input clashes with the channel's, or the layer changes while on a bus" },
        },
      },
    ),
    async (c) => {
      const { id, sceneId } = c.req.valid('param');
      const body = c.req.valid('json');
      const before = findScene(engine, id, sceneId);
      const scene: SceneRecord = {
        ...before,
        name: body.name ?? before.name,
        definition: normaliseDefinition(body.definition),
        updatedAt: new Date().toISOString(),
      };
      engine.checkScene(scene);
      assertLayerKept(engine, before, scene);
      await store.updateScene(scene);
      engine.upsertScene(scene);
      return c.json(sceneView(scene), 200);
    },
  );

  app.openapi(
    route(
      { permission: 'channels:write', bucket: 'creates' },
      {
        method: 'delete',
        path: '/channels/{id}/scenes/{sceneId}',
        tags: ['Scenes'],
        summary: 'Delete a scene (refused while it is on program or preview)',
        request: { params: SceneParams },
        responses: {
          204: { description: 'Deleted' },
          409: { description: 'The scene is on program or preview' },
        },
      },
    ),
    async (c) => {
      const { id, sceneId } = c.req.valid('param');
      findScene(engine, id, sceneId);
      assertDeletable(engine, id, sceneId);
      await store.deleteScene(sceneId);
      engine.removeScene(id, sceneId);
      return c.body(null, 204);
    },
  );

  return app;
}

function findScene(engine: Engine, channelId: string, sceneId: string): SceneRecord {
  const scene = engine.scenes(channelId).find((s) => s.id === sceneId);
  if (!scene) throw new AppError('not_found', `Scene ${sceneId} is not in channel ${channelId}.`);
  return scene;
}

function resolveDefinition(body: z.infer<typeof SceneIn>): SceneDefinition {
  if (body.definition) return normaliseDefinition(body.definition);
  const template = findTemplate(body.template ?? '');
  if (!template) {
    const known = TEMPLATES.map((t) => t.id).join(', ');
    throw new AppError('invalid_request', `Unknown template "${body.template}". Known templates: ${known}.`, {
      errors: [{ path: 'template', message: `unknown template; one of ${known}` }],
    });
  }
  return structuredClone(template.definition);
}

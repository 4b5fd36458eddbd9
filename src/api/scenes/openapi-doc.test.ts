import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { SceneIn, SceneUpdate } from '../../scenes/definition-schema.js';
import type { ApiDeps } from '../env.js';
import { json } from '../schemas/common.js';
import { templateRoutes } from '../templates/routes.js';
import { SceneOut } from './schemas.js';

describe('the OpenAPI document', () => {
  it('still generates with the recursive element schema, and refers back to it from groups', () => {
    const app = new OpenAPIHono();
    const responses = { 200: { description: 'The scene', ...json(SceneOut) } };
    app.openapi(createRoute({ method: 'post', path: '/s', request: { body: json(SceneIn) }, responses }), (c) =>
      c.json({} as never, 200),
    );
    app.openapi(createRoute({ method: 'put', path: '/s/x', request: { body: json(SceneUpdate) }, responses }), (c) =>
      c.json({} as never, 200),
    );
    app.route('/', templateRoutes({} as ApiDeps));
    const doc = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'onair', version: '1' } });
    const schemas = doc.components?.schemas ?? {};
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(['SceneDefinition', 'SceneElement', 'GroupElement', 'TextElement', 'Template', 'Trigger']),
    );
    expect(JSON.stringify(schemas.GroupElement)).toContain('"items":{"$ref":"#/components/schemas/SceneElement"}');
    expect(JSON.stringify(schemas.SceneDefinition)).toContain(
      '"elements":{"type":"array","items":{"$ref":"#/components/schemas/SceneElement"}',
    );
    expect(() => JSON.stringify(doc)).not.toThrow();
  });
});

/**
 * A route declared in a few words (operation-route.ts does the work): `route(op, 'post /channels', { summary, body,
 * ok: [201, 'Created', ChannelOut] })`. The OpenAPI request and responses are written from these fields, so every
 * route's entry has the same shape.
 */
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { ZodType } from 'zod';
import type { Operation, Runner } from '../operations/index.js';
import type { ApiEnv } from './env.js';
import { bindOperation, type HttpBinding } from './operation-route.js';
import { problem } from './route-docs.js';
import { json } from './schemas/common.js';

export type Method = HttpBinding<unknown>['method'];
type Params = NonNullable<RouteConfig['request']>['params'];
type Query = NonNullable<RouteConfig['request']>['query'];

export interface RouteSpec<O> extends SpecDocs, Pick<HttpBinding<O>, 'input' | 'answer' | 'statusOf'> {
  summary: string;
  description?: string;
}

/** Declares routes over operations on `app`, all under `tags`. */
export function routeBinder(app: OpenAPIHono<ApiEnv>, runner: Runner, tags: string[]) {
  return <I, O>(op: Operation<I, O>, where: `${Method} /${string}`, spec: RouteSpec<O>) =>
    bindOperation(app, runner, op, binding(where, tags, spec));
}

/** What the OpenAPI entry of a route declared in a few words says: its request and its answers. */
export interface SpecDocs {
  params?: Params;
  query?: Query;
  /** The JSON body the route takes; absent: it takes none (an empty one or `{}` at most). */
  body?: ZodType;
  /** The body may be left out. */
  optionalBody?: boolean;
  /** The success: status, description, and the answer's schema (none for 204). */
  ok: [200 | 201 | 204, string, ZodType?];
  /** Other answers the route documents: status → description, or description and schema. */
  more?: Record<number, string | [string, ZodType]>;
}

export function openApiParts(spec: SpecDocs): Pick<RouteConfig, 'request' | 'responses'> {
  const [status, description, schema] = spec.ok;
  const responses: RouteConfig['responses'] = { [status]: { description, ...(schema ? json(schema) : {}) } };
  for (const [code, more] of Object.entries(spec.more ?? {})) {
    // An error named in a few words is a problem+json like every error the route documents.
    if (typeof more === 'string') responses[code] = Number(code) >= 400 ? problem(more) : { description: more };
    else responses[code] = { description: more[0], ...json(more[1]) };
  }
  const request: RouteConfig['request'] = {
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.query ? { query: spec.query } : {}),
    ...(spec.body ? { body: { required: spec.optionalBody !== true, ...json(spec.body) } } : {}),
  };
  return { request, responses };
}

function binding<O>(where: string, tags: string[], spec: RouteSpec<O>): HttpBinding<O> {
  const [method, path] = where.split(' ') as [Method, `/${string}`];
  const status = spec.ok[0];
  const { request, responses } = openApiParts(spec);
  const { summary, description: text, input, answer, statusOf } = spec;
  return {
    method,
    path,
    tags,
    summary,
    ...(text === undefined ? {} : { description: text }),
    request,
    responses,
    ...(status === 200 ? {} : { status }),
    ...(input ? { input } : {}),
    ...(answer ? { answer } : {}),
    ...(statusOf ? { statusOf } : {}),
  };
}
